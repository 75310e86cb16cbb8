"""The Russian of every message, table heading and help text, keyed by its English.

Words of the seeds: корзина (basket), ставка (stake), лабет, консоляция, шлем (slam), пас,
прикуп, старшая и младшая (senior and junior suit), играющий (declarer), сдача (a deal),
взятка (a trick), тур, партия (partie), фишка (chip). A session is «вечер», an evening at
the table. `tests/test_i18n.py` holds this catalogue to the code: every text has its
Russian, with the same {fields}, and nothing here is left unused.
"""

from __future__ import annotations

import errno

from .ru_tariff import MESSAGES as TARIFF_MESSAGES

MESSAGES: dict[str, str] = {
    # ---- words in tables ------------------------------------------------------------------
    "stake": "ставка",
    "remise": "ремиз",
    "all pass: basket doubles": "все пасуют: корзина удваивается",
    "consolation": "консоляция",
    "contract": "контракт",
    "overtricks": "лишние взятки",
    "undertricks": "недобор",
    "slam (all doubled)": "шлем (всё вдвойне)",
    "basket won": "корзина взята",
    "labet": "лабет",
    "boston": "бостон",
    "carte-blanche": "карт-бланш",
    "to opponents": "противникам",
    "basket": "корзина",
    "all pass": "все пасуют",
    "pass": "пас",
    ", boston {name}": ", бостон: {name}",
    "alone": "в одиночку",
    "made": "выигрыш",
    "failed": "проигрыш",
    "why": "за что",
    "this deal": "эта сдача",
    "balance": "итог",
    "score": "очки",
    "chip": "фишка",
    "point": "очко",
    "tour": "тур",
    "dealer": "сдающий",
    "deal": "сдача",
    "when": "когда",
    "reason": "причина",
    "was": "было",
    "now": "сейчас",
    "before": "до",
    "after": "после",
    "change": "изменение",
    "bar": "норма",
    "tricks": "взятки",
    "condition": "условие",
    "what it changes": "что оно меняет",
    "player": "игрок",
    "net chips": "итого фишек",
    "net points": "итого очков",
    "money": "деньги",
    "id": "№",
    "name": "название",
    "date": "дата",
    "players": "игроки",
    "tariff": "тариф",
    "deals": "сдач",
    "state": "состояние",
    "result": "результат",
    "settled": "рассчитан",
    "open": "идёт",
    "sessions": "вечеров",
    "declared": "играл",
    "rate": "успех",
    "net": "итог",
    "best": "лучшая",
    "worst": "худшая",
    "contracts": "контракты",
    "recorded": "записано",
    "rescored": "пересчитано",
    "difference": "разница",
    "low": "мин.",
    "high": "макс.",
    "start": "начало",
    "Money": "Деньги",
    "all square": "все в расчёте",
    "In {currency}": "В {currency}",
    "demo evening": "показательный вечер",
    "Anna": "Анна",
    "Boris": "Борис",
    "Vera": "Вера",
    "Gleb": "Глеб",
    # ---- deals, status, history -----------------------------------------------------------
    "Deal {number}": "Сдача {number}",
    "deal {number}": "сдача {number}",
    "dealer {name}": "сдаёт {name}",
    "of {count}": "из {count}",
    "partie {partie}, tour {tour} ({kind})": "партия {partie}, тур {tour} ({kind})",
    "double tour ×{multiplier}": "двойной тур ×{multiplier}",
    "simple tour": "простой тур",
    "★ The double tours begin: every payment between players is ×{multiplier} until the partie ends.":
        "★ Начинаются двойные туры: до конца партии все платежи между игроками ×{multiplier}.",
    "★ Partie {partie} ends with this deal; the next deal opens partie {next}.":
        "★ Этой сдачей кончается партия {partie}; следующая сдача открывает партию {next}.",
    "session {id}": "вечер {id}",
    "Session {id}": "Вечер {id}",
    "tariff {name}": "тариф {name}",
    " with {conditions}": " (условия: {conditions})",
    ", with {conditions}": " (условия: {conditions})",
    " instead of {tariff}": " вместо {tariff}",
    "{n} deal played|{n} deals played": "сыграна {n} сдача|сыграны {n} сдачи|сыграно {n} сдач",
    "next: deal {number}": "далее: сдача {number}",
    "the next deal opens with a stake of {stake} from each player":
        "следующая сдача начинается со ставки {stake} от каждого игрока",
    "the next deal opens with a stake of {stake} from the dealer, {name}":
        "следующая сдача начинается со ставки {stake} от сдающего, {name}",
    "{left} of the {count} agreed deals remain": "из {count} условленных сдач осталось {left}",
    "all {count} agreed deals are played; settle the session":
        "все {count} условленных сдач сыграны; рассчитайте вечер",
    "scores as written on the sheet:": "очки, как они записаны на листе:",
    "Deal {number} recorded.": "Сдача {number} записана.",
    "Record this deal?": "Записать эту сдачу?",
    "[Y/n]": "[Д/н]",
    "answer y or n": "ответьте д или н",
    "Nothing recorded.": "Ничего не записано.",
    "No boston claimed. If somebody held it, `boston-ledger undo` and enter the deal again with --boston NAME.":
        "Бостон никто не назвал. Если он у кого-то был, сделайте `boston-ledger undo` и введите сдачу заново "
        "с --boston ИМЯ.",
    "Session {id} started: {names} (seat order; {name} deals first).":
        "Вечер {id} начат: {names} (в порядке мест; первым сдаёт {name}).",
    "Tariff {name} ({digest}): {title}. One chip = {value}.": "Тариф {name} ({digest}): {title}. Одна фишка = {value}.",
    "Tariff {name} ({digest}): {title}. One point = {value}.": "Тариф {name} ({digest}): {title}. Одно очко = {value}.",
    "Conditions: {names}.": "Условия: {names}.",
    "The session lasts {agreed} deals.": "Условлено сдач на вечер: {agreed}.",
    "Deal {number} corrected: {was} → {now}; the old entry stays on record.":
        "Сдача {number} исправлена: {was} → {now}; прежняя запись сохранена.",
    "Session {id} has no corrected deal.": "В вечере {id} нет исправленных сдач.",
    "Session {id} has no deals yet.": "В вечере {id} ещё нет сдач.",
    "deals {first}–{last} of {total}; `{prog} history --all` shows every deal":
        "сдачи {first}–{last} из {total}; `{prog} history --all` покажет все",
    "{n} deal taken back with undo (kept on record).|{n} deals taken back with undo (kept on record).":
        "{n} сдача отменена (запись сохранена).|{n} сдачи отменены (записи сохранены).|{n} сдач отменено (записи сохранены).",
    "Deal {number} ({deal}) taken back; it stays on record as undone.":
        "Сдача {number} ({deal}) отменена; запись о ней сохранена.",
    "Session {id} was already settled; here is its settlement.": "Вечер {id} уже рассчитан; вот его расчёт.",
    "Settled before, on {when}, and reopened: {money}": "Прежний расчёт, {when}, потом вечер открыт снова: {money}",
    "The basket's {chips} chips are shared equally.": "Фишки корзины ({chips}) делятся поровну.",
    "Settlement of session {id} (one chip = {value})": "Расчёт вечера {id} (одна фишка = {value})",
    "Settlement of session {id} (one point = {value})": "Расчёт вечера {id} (одно очко = {value})",
    "nobody owes anybody anything": "никто никому ничего не должен",
    "{payer} pays {payee} {amount}": "платит {payer}, получает {payee}: {amount}",
    "Session {id} reopened; its earlier settlement stays on record. Correct it with `{prog} edit N ...`, "
    "then settle it again.":
        "Вечер {id} открыт снова; прежний расчёт сохранён. Исправьте сдачи командой `{prog} edit N ...` "
        "и рассчитайте вечер ещё раз.",
    "Session {id} is current: {names}.": "Текущий вечер — {id}: {names}.",
    "contracts declared (made)": "сыгранные контракты (выигранные)",
    "most successful partnership: {names}, {made} of {deals} made ({rate:.0%})":
        "самая удачная пара: {names}, выиграно {made} из {deals} ({rate:.0%})",
    "least successful partnership: {names}, {made} of {deals} made ({rate:.0%})":
        "самая неудачная пара: {names}, выиграно {made} из {deals} ({rate:.0%})",
    "running balance over {count} deals (scale {low} .. {high})": "итог по ходу вечера (сдач: {count}; шкала {low} .. {high})",
    "wrote {path}": "записан {path}",
    "cannot write {path}: {error}": "не удаётся записать {path}: {error}",
    "No settled session yet: nobody owes anybody anything.":
        "Ни один вечер ещё не рассчитан: никто никому ничего не должен.",
    "Recorded: {payer} paid {payee} {amount}.": "Записан платёж: {payer} → {payee}, {amount}.",
    "say what to replay it under: --tariff NAME and/or --condition NAME":
        "скажите, по какому тарифу или с какими условиями пересчитать: --tariff ИМЯ и/или --condition ИМЯ",
    "Session {id} under {tariff}": "Вечер {id} по тарифу {tariff}",
    "source: {source}": "источник: {source}",
    "conditions: {names}": "условия: {names}",
    "ok: {path} is a valid tariff: {name}, {contracts} contracts, {conditions} conditions":
        "ок: {path} — правильный тариф: {name}, контрактов {contracts}, условий {conditions}",
    "wrote {path}: edit it, check it with `{prog} tariffs check {path}`, use it with `{prog} new ... --tariff {path}`":
        "записан {path}: поправьте его, проверьте командой `{prog} tariffs check {path}`, играйте по нему: "
        "`{prog} new ... --tariff {path}`",
    "a correction needs --reason TEXT: say why the deal is changed":
        "для исправления нужен --reason ТЕКСТ: скажите, почему сдача меняется",
    # ---- tariff tables ----------------------------------------------------------------------
    "Chips each member of the declaring side receives from (+) or pays to (-) each opponent":
        "Фишки, которые каждый из играющих получает от каждого противника (+) или платит ему (-)",
    "Points each member of the declaring side scores (+) or loses (-)":
        "Очки, которые каждый из играющих записывает себе (+) или теряет (-)",
    "{what}, by tricks taken": "{what}, по числу взятых взяток",
    "{what}, by tricks taken (one column per contract):": "{what}, по числу взятых взяток (по столбцу на контракт):",
    "Misères, nulls and other no-trick contracts (made when the declarer takes no trick)":
        "Мизеры и другие контракты без взяток (выиграны, когда играющий не взял ни одной взятки)",
    "made: each opponent pays": "выигрыш: платит каждый противник",
    "made: scores": "выигрыш: очки",
    "failed: pays each opponent": "проигрыш: платит каждому противнику",
    "failed: loses": "проигрыш: теряет",
    "failed: basket": "проигрыш: корзина",
    "with a partner": "с партнёром",
    "with a partner, the tricks are the pair's together": "с партнёром взятки считаются вместе, на пару",
    "; a member who took his share neither pays nor receives when the pair fails":
        "; кто из пары взял свою долю, тот при проигрыше пары не платит и не получает",
    "Conditions a session may agree (new --condition NAME)": "Условия, о которых можно договориться (new --condition ИМЯ)",
    " (on)": " (включено)",
    " (already so in this tariff)": " (в этом тарифе уже так)",
    "bar {bar}": "норма {bar}",
    "each player": "от каждого игрока",
    "the dealer alone": "только от сдающего",
    "{players} players; a score sheet of points: no basket, no stake, no boston; all pass scores nothing; "
    "settled by the pairwise differences of the scores":
        "игроков: {players}; запись очков на листе: ни корзины, ни ставки, ни бостона; когда все пасуют, "
        "никто ничего не записывает; расчёт по попарным разностям очков",
    "{players} players; stake {stake} from {payer} at the first deal and after the basket is won; {all_pass}; "
    "boston pays {boston} from each other player":
        "игроков: {players}; ставка {stake} {payer} в первой сдаче и после того, как корзина взята; {all_pass}; за бостон его держателю платит {boston} каждый из остальных",
    "all pass: the basket doubles": "когда все пасуют, корзина удваивается",
    "all pass: nothing is paid": "когда все пасуют, никто ничего не платит",
    "the dealer pays what does not divide when the basket doubles":
        "когда корзина удваивается, неделимый остаток платит сдающий",
    "the player after the dealer pays what does not divide when the basket doubles":
        "когда корзина удваивается, неделимый остаток платит игрок, сидящий после сдающего",
    "two failing partners split the labet, the declarer paying any odd chip":
        "двое проигравших делят лабет пополам, лишнюю фишку платит играющий",
    "two failing partners split the labet, the partner paying any odd chip":
        "двое проигравших делят лабет пополам, лишнюю фишку платит партнёр",
    "a basket shared out leaves what does not divide in the basket":
        "когда корзину делят, неделимый остаток остаётся в корзине",
    "a basket shared out gives what does not divide to the first sharer from the declarer":
        "когда корзину делят, неделимый остаток получает первый из делящих, считая от играющего",
    "odd chips: {rules}": "лишние фишки: {rules}",
    " (×{times} in a slam)": " (×{times} при шлеме)",
    "remise: the dealer pays {chips} into the basket when the turned trump is an ace":
        "ремиз: сдающий кладёт {chips} в корзину, когда открытый козырь — туз",
    "carte blanche: {chips} from each other player to who declares a blank hand":
        "карт-бланш: {chips} от каждого другого игрока тому, кто объявил руку без фигур",
    "a partie is {tours} tours of {players} deals; tour multipliers {multipliers} "
    "(payments between players; the basket is never multiplied)":
        "партия — {tours} туров по {players} сдачи; множители туров {multipliers} (для платежей между игроками; корзина не умножается никогда)",
    "a partie is {tours} tours of {players} deals; tour multipliers {multipliers} (payments between players)":
        "партия — {tours} туров по {players} сдачи; множители туров {multipliers} (для платежей между игроками)",
    # ---- guided entry -----------------------------------------------------------------------
    "Contract ({choices})": "Контракт ({choices})",
    "Declarer": "Играющий",
    "Partner": "Партнёр",
    "Rank ({choices})": "Масть ({choices})",
    "Tricks taken by {name}": "Сколько взяток взял(а) {name}",
    "Who held the boston": "У кого был бостон",
    " (Enter for nobody)": " (Enter — нет)",
    "choose 1 to {count} or a name ({names})": "выберите от 1 до {count} или имя ({names})",
    "a whole number from 0 to {high}": "целое число от 0 до {high}",
    "the {tariff} tariff has: {choices}": "в тарифе {tariff} есть: {choices}",
    "choose one of {choices}": "выберите одно из: {choices}",
    "{name} is the declarer; choose the partner among the others": "{name} — сам играющий; партнёра выберите из других",
    "FROM": "ОТ_КОГО",
    "TO": "КОМУ",
    " & ": " и ",
    # ---- errors -----------------------------------------------------------------------------
    "{prog}: error: {message}": "{prog}: ошибка: {message}",
    "{prog}: aborted": "{prog}: прервано",
    "{message} (see `{command} --help`)": "{message} (см. `{command} --help`)",
    "{prog}: internal error: {kind}: {error}. Please report it with the command you ran; "
    "`{prog} status` shows what is recorded.":
        "{prog}: внутренняя ошибка: {kind}: {error}. Сообщите о ней вместе с командой, которую вы ввели; "
        "`{prog} status` покажет, что записано.",
    "the ledger database failed: {error}; nothing was recorded": "сбой базы записей: {error}; ничего не записано",
    "boston-ledger: error: --lang must be en or ru, not {value!r}":
        "boston-ledger: ошибка: --lang: нужно en или ru, а не {value!r}",
    "no such option: {name}": "нет такого параметра: {name}",
    "; did you mean {hint}?": "; может быть, {hint}?",
    "missing option {name}": "не хватает параметра {name}",
    "missing argument {name}": "не хватает аргумента {name}",
    "option {name} needs a value": "параметру {name} нужно значение",
    "option {name} takes no value": "параметр {name} не принимает значения",
    "unexpected extra argument ({name})": "лишний аргумент ({name})",
    "no such command {name!r}": "нет такой команды {name!r}",
    "a command is missing": "не указана команда",
    "invalid value for {name}: {detail}": "неверное значение {name}: {detail}",
    "{option} must be a whole number from {low} to {high}, not {value}":
        "{option}: нужно целое число от {low} до {high}, а не {value}",
    "the {tariff} tariff has no contract {contract!r}; use one of {choices} or pass":
        "в тарифе {tariff} нет контракта {contract!r}; возьмите один из: {choices} или пас",
    "--rank must be one of {choices}, not {rank!r}": "--rank: нужна одна из мастей ({choices}), а не {rank!r}",
    "deal needs a CONTRACT, e.g. `boston-ledger deal junior --declarer NAME --tricks N`":
        "сдаче нужен КОНТРАКТ, например `boston-ledger deal младшая --declarer ИМЯ --tricks N`",
    "--since must be a date such as 2026-01-31, not {clip}": "--since: нужна дата вида 2026-01-31, а не {clip}",
    # engine
    "--ace-turned counts only with the remise condition, which this session does not play; drop it":
        "--ace-turned имеет смысл только при условии ремиза, а этот вечер играется без него; уберите его",
    "the {name} tariff pays nothing for a blank hand; drop --carte-blanche":
        "тариф {name} ничего не платит за руку без фигур; уберите --carte-blanche",
    "the {name} tariff pays no boston; drop --boston": "тариф {name} не платит за бостон; уберите --boston",
    "the {name} tariff has no contract {contract!r}; it has {names} and pass":
        "в тарифе {name} нет контракта {contract!r}; в нём есть {names} и пас",
    "{contract} needs --declarer NAME": "{contract}: нужен --declarer ИМЯ",
    "{contract} needs --tricks N (the declarer's own tricks)": "{contract}: нужен --tricks N (взятки самого играющего)",
    "declarer and partner took {tricks} + {partner_tricks} tricks, more than the {deal_tricks} of a deal":
        "играющий и партнёр взяли {tricks} + {partner_tricks} взяток, больше, чем {deal_tricks} в сдаче",
    "{contract} needs --rank ({names})": "{contract}: нужен --rank ({names})",
    "{contract} is played without boston; drop --boston": "{contract} играется без бостона; уберите --boston",
    "{what} seat {seat} is not at this table of {n}": "{what}: места {seat} нет за этим столом на {n}",
    "an all-pass is not played, so it takes no {extra}; drop it":
        "когда все пасуют, никто не играет: {extra} не нужен, уберите его",
    "the partner cannot be the declarer; name another player or drop --partner":
        "партнёр не может быть самим играющим; назовите другого игрока или уберите --partner",
    "{contract} is played alone; drop --partner": "{contract} играется в одиночку; уберите --partner",
    "a deal with a partner needs --partner-tricks N (the partner's own tricks)":
        "при игре с партнёром нужен --partner-tricks N (взятки самого партнёра)",
    "{contract} is played with a partner; add --partner NAME": "{contract} играется с партнёром; добавьте --partner ИМЯ",
    "--partner-tricks needs --partner NAME; drop it when the declarer plays alone":
        "--partner-tricks требует --partner ИМЯ; уберите его, когда играющий играет один",
    "{what} must be a whole number from 0 to {tricks}, not {t}":
        "{what}: нужно целое число от 0 до {tricks}, а не {t}",
    "{contract} has no rank {rank!r}; it is played as {allowed}":
        "контракт {contract} не играется в масти {rank!r}; его масть — {allowed}",
    "{contract} has no rank {rank!r}; it is played without a rank; drop --rank":
        "контракт {contract} играется без масти ({rank!r} не нужна); уберите --rank",
    # ledger
    "{what}: no player {clip} in this session; the players are {names}":
        "{what}: игрока {clip} в этом вечере нет; играют {names}",
    "--chip-value must be a positive decimal amount such as 0.10, from {low} to {high} with at most six "
    "decimals, not {clip}":
        "--chip-value: нужна положительная десятичная сумма вроде 0.10, от {low} до {high}, не более шести знаков после точки, а не {clip}",
    "--currency must be a short code such as EUR or RUB, not {text!r}":
        "--currency: нужен короткий код вроде EUR или RUB, а не {text!r}",
    "the {name} tariff is for {players} players; name {players} in seat order, not {count}":
        "тариф {name} рассчитан на {players} игроков; назовите {players} в порядке мест, а не {count}",
    "--name must be plain printable text of 1 to 80 characters, not {clip}":
        "--name: нужен простой текст от 1 до 80 знаков, а не {clip}",
    "session {id} is settled and takes no more deals; start another with `boston-ledger new`":
        "вечер {id} рассчитан, сдач больше не принимает; начните новый командой `boston-ledger new`",
    "the {agreed_deals} agreed deals of session {id} are played; settle it with `boston-ledger settle`":
        "все {agreed_deals} условленных сдач вечера {id} сыграны; рассчитайте его командой `boston-ledger settle`",
    "this would take the basket or a balance beyond what the ledger can hold; settle the session and start "
    "a new one":
        "корзина или чей-то итог вышли бы за пределы того, что может хранить книга; рассчитайте вечер и начните новый",
    "stored state {stored} differs from the engine's {expected}":
        "записанное состояние {stored} расходится с расчётом {expected}",
    "internal error, nothing recorded: {problem}": "внутренняя ошибка, ничего не записано: {problem}",
    "a correction needs --reason TEXT: say in plain words (at most 500 characters) why the deal is changed":
        "для исправления нужен --reason ТЕКСТ: скажите простыми словами (не больше 500 знаков), почему сдача меняется",
    "AMOUNT must be a positive amount of money with at most two decimals, such as 12.30, not {clip}":
        "СУММА должна быть положительной, не более двух знаков после точки, например 12.30, а не {clip}",
    "{what}: nobody called {clip} has played in this ledger": "{what}: никто по имени {clip} в этой книге не играл",
    "the {name} tariff is for {players} players; session {session_id} has {count}":
        "тариф {name} рассчитан на {players} игроков, а в вечере {session_id} их {count}",
    "a player's name cannot be empty; give every player a name": "имя игрока не может быть пустым; назовите каждого",
    "the name {name!r}... is too long; keep names under 40 characters":
        "имя {name!r}... слишком длинное; имена короче 40 знаков",
    "the name {name!r} has control characters; type a plain name":
        "в имени {name!r} есть управляющие символы; наберите простое имя",
    "{name!r} is the word for the pool in the middle; give the player another name":
        "{name!r} — так называется общий банк посередине стола; дайте игроку другое имя",
    "{name!r} is named twice; every player needs a distinct name":
        "имя {name!r} названо дважды; у каждого игрока должно быть своё имя",
    "session {id} is settled; its deals can no longer be taken back":
        "вечер {id} рассчитан; его сдачи больше нельзя взять назад",
    "there is no deal to take back in this session": "в этом вечере нет сдачи, которую можно взять назад",
    "session {id} is settled; `boston-ledger reopen` it first to correct a deal":
        "вечер {id} рассчитан; чтобы исправить сдачу, сначала откройте его: `boston-ledger reopen`",
    "deal {number} was entered just so; there is nothing to correct":
        "сдача {number} уже записана именно так; исправлять нечего",
    "session {id} is not settled; there is nothing to reopen": "вечер {id} не рассчитан; открывать снова нечего",
    "FROM and TO are the same person; a payment goes from one to another":
        "ОТ_КОГО и КОМУ — один и тот же человек; платят один другому",
    "there is no deal {number} in session {id}; its deals are 1 to {count}":
        "в вечере {id} нет сдачи {number}; в нём сдачи с 1 по {count}",
    "session {id} has no deals yet": "в вечере {id} ещё нет сдач",
    "the settled sessions use several currencies ({shown}); give --currency CODE":
        "в рассчитанных вечерах несколько валют ({shown}); укажите --currency КОД",
    "no settled session is in {value}; the currencies are {shown}":
        "ни один рассчитанный вечер не в {value}; валюты: {shown}",
    "deal {number} cannot be scored under {name}: {e}": "сдачу {number} нельзя пересчитать по тарифу {name}: {e}",
    # check
    "transfer": "перевод",
    "correction": "исправление",
    "superseded deal": "заменённая сдача",
    "seat {seat}": "место {seat}",
    ", deal {number}": ", сдача {number}",
    "balances plus basket sum to {total}, expected 0": "итоги вместе с корзиной дают {total}, а должны 0",
    "a {what} names a player of session {other}": "{what}: ссылка на игрока вечера {other}",
    "a {what} belongs to a correction of another session": "{what}: относится к исправлению другого вечера",
    "{orphans} transfers point at no deal": "переводов без сдачи: {orphans}",
    "transfer {t} is not a movement of chips between two parties of the session":
        "перевод {t} — не движение фишек между двумя сторонами вечера",
    "the deal is numbered {number}; it is deal {expected} of the session":
        "у сдачи номер {number}, а в вечере это сдача {expected}",
    "stored balances after the deal {stored}, basket {basket}; the replay gives {replayed}, basket {replayed_basket}":
        "записанные итоги после сдачи {stored}, корзина {basket}; пересчёт даёт {replayed}, корзина {replayed_basket}",
    "the deal no longer scores: {e}": "сдача больше не считается: {e}",
    "stored transfers differ from the replay: expected {expected}, found {found}":
        "записанные переводы расходятся с пересчётом: ожидалось {expected}, записано {found}",
    " (in another order)": " (в другом порядке)",
    # export
    "{directory} is not a folder; give export a folder path": "{directory} — не папка; дайте export путь к папке",
    "cannot make the folder {directory}: {strerror}": "не удаётся создать папку {directory}: {strerror}",
    "cannot write into {directory}: {strerror}": "не удаётся писать в {directory}: {strerror}",
    # storage
    "{path} was written by a newer boston-ledger (schema {version}, this one knows {SCHEMA_VERSION}); "
    "upgrade boston-ledger to use it":
        "{path} записан более новой версией boston-ledger (схема {version}, эта знает {SCHEMA_VERSION}); "
        "обновите boston-ledger",
    "no session yet; start one with `boston-ledger new NAME NAME NAME NAME`":
        "вечер ещё не начат; начните его командой `boston-ledger new ИМЯ ИМЯ ИМЯ ИМЯ`",
    "no session {session_id} in this ledger": "в этой книге нет вечера {session_id}",
    "the balances kept with deal {last} of session {id} are damaged; `boston-ledger check` shows what differs":
        "итоги, записанные при сдаче {last} вечера {id}, повреждены; `boston-ledger check` покажет, что расходится",
    "no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`":
        "книги {path} ещё нет; начните вечер командой `boston-ledger new ИМЯ ИМЯ ИМЯ ИМЯ`",
    "{path} is a folder, not a ledger file; give --db a file path": "{path} — папка, а не файл книги; дайте --db путь к файлу",
    "cannot use the ledger {path}: {e}; check that the file and its folder are writable":
        "не удаётся открыть книгу {path}: {e}; проверьте, что файл и его папка доступны для записи",
    "{path} is an SQLite database of something else, not a boston-ledger database; give --db another file":
        "{path} — база SQLite чего-то другого, а не boston-ledger; дайте --db другой файл",
    "no ledger in {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`":
        "в {path} ещё нет книги; начните вечер командой `boston-ledger new ИМЯ ИМЯ ИМЯ ИМЯ`",
    "cannot make the folder for the ledger {path}: {strerror}; give --db a path in a folder you can write":
        "не удаётся создать папку для книги {path}: {strerror}; дайте --db путь в папке, куда можно писать",
    "{path} is not a boston-ledger database ({e}); give --db another file":
        "{path} — не база boston-ledger ({e}); дайте --db другой файл",
    # ---- demo -------------------------------------------------------------------------------
    "Worked example 1 of the rules: stake, a pair makes 9 and takes the basket; Vera held the boston":
        "Пример 1 из RULES.md: ставка, пара берёт 9 взяток и корзину; бостон был у Веры",
    "Worked example 2: the basket was won, so a new stake; all pass: the basket doubles":
        "Пример 2: корзину взяли, значит, новая ставка; все пасуют — корзина удваивается",
    "Worked example 3: Anna buys the senior suit and nobody supports her; 6 alone is one over, senior pays double":
        "Пример 3: Анна покупает старшую, никто её не поддерживает; 6 взяток в одиночку — одна лишняя, "
        "старшая платит вдвое",
    "A pair fails with 7: Vera owed 5 and took 4, so she pays both opponents and makes the labet; Anna took "
    "her 3 and neither pays nor receives":
        "Пара проигрывает с 7 взятками: Вера должна была взять 5, а взяла 4, поэтому платит обоим противникам "
        "и ставит лабет; Анна взяла свои 3 и не платит и не получает",
    "Boris plays a misère and takes no trick: paid by all, no boston":
        "Борис играет мизер и не берёт ни одной взятки: платят все, бостона нет",
    "Vera's grand misère fails with one trick: she pays each player, makes the labet and pays the boston":
        "Большой мизер Веры проигран с одной взяткой: она платит каждому, ставит лабет и платит за бостон",
    "Boris buys alone and takes 3 of his 5: he pays the three and the basket goes to them":
        "Борис покупает один и берёт 3 из своих 5: он платит троим, и корзина достаётся им",
    "A slam: the pair takes all 13 tricks and every payment doubles":
        "Шлем: пара берёт все 13 взяток, и все платежи удваиваются",
    "Anna takes 2 of her 5 and Gleb 4 of his 3: only Anna pays":
        "Анна берёт 2 из своих 5, а Глеб 4 из своих 3: платит одна Анна",
    "The double tours begin (tour 9 of 10): every payment between players doubles; the basket does not":
        "Начинаются двойные туры (тур 9 из 10): все платежи между игроками удваиваются, корзина — нет",
    "A misère failed in a double tour: payments and boston doubled":
        "Мизер проигран в двойном туре: платежи и бостон вдвойне",
    "A classic Boston evening: {names} ({first} deals first), tariff {tariff}, one chip = 0.10.":
        "Классический вечер в бостон: {names} (первым сдаёт {first}), тариф {tariff}, одна фишка = 0.10.",
    "Each line is what one player would type; notable deals show what moved and why.":
        "Каждая строка — то, что набрал бы игрок; у примечательных сдач показано, что и за что перешло.",
    "The evening is kept in {path}; look at it with `boston-ledger history --db {path}`.":
        "Вечер сохранён в {path}; посмотрите его командой `boston-ledger history --db {path}`.",
    "That was a throw-away ledger. Start your own evening with "
    "`boston-ledger new Anna Boris Vera Gleb --chip-value 0.10`.":
        "Это была одноразовая книга. Начните свой вечер командой "
        "`boston-ledger new Анна Борис Вера Глеб --chip-value 0.10`.",
    # ---- typer's own words in help pages ----------------------------------------------------
    "Arguments": "Аргументы",
    "Options": "Параметры",
    "Commands": "Команды",
    "[default: {}]": "[по умолчанию: {}]",
    "[required]": "[обязательно]",
    "Usage: ": "Вызов: ",
    "Show this message and exit.": "Показать эту справку и выйти.",
    # ---- serve: the evening on the players' phones ---------------------------------------------
    "serve needs its extra: pip install 'boston-ledger[serve]'":
        "serve нужно дополнение: pip install 'boston-ledger[serve]'",
    "no local network address found for --lan; is this machine on a network?":
        "для --lan не найден адрес в локальной сети; подключена ли машина к сети?",
    "cannot listen on {host}:{port}: {error}; choose another port with --port N":
        "не удаётся слушать {host}:{port}: {error}; выберите другой порт: --port N",
    "Anyone on this network who has the link can read the evening.":
        "Любой в этой сети, у кого есть ссылка, может смотреть вечер.",
    "Session {id} on the phones: {url}": "Вечер {id} на телефонах: {url}",
    "Read-only; Ctrl-C stops it.": "Только просмотр; Ctrl-C останавливает.",
    "Stopped.": "Остановлено.",
    "cannot write the token file {path}: {error}": "не удаётся записать файл ключа {path}: {error}",
    "cannot read the token file {path}: {error}": "не удаётся прочитать файл ключа {path}: {error}",
    "the token file {path} does not hold a token (16 to 128 letters, digits, - or _); delete it and a new one is written":
        "в файле ключа {path} нет ключа (от 16 до 128 латинских букв, цифр, - или _); удалите его, и будет "
        "записан новый",
    "{path} is not a boston-ledger database of this version; run `boston-ledger status --db {path}` once to bring it up to date":
        "{path} — не книга boston-ledger этой версии; выполните один раз `boston-ledger status --db {path}`, "
        "чтобы её обновить",
    "Boston · {session}": "Бостон · {session}",
    "deals next": "сдаёт",
    "last deal": "за сдачу",
    "Last deals": "Последние сдачи",
    "No connection to the score-keeper; trying again…": "Нет связи с записью счёта; пробую снова…",
    "Read-only: the sheet updates by itself after each deal.":
        "Только просмотр: запись обновляется сама после каждой сдачи.",
    "Not found.": "Не найдено.",
    "Only GET and HEAD are answered here.": "Здесь отвечают только на GET и HEAD.",
    "This page needs the link's token: open the link that `boston-ledger serve` shows, or scan its code.":
        "Этой странице нужен ключ из ссылки: откройте ссылку, которую показывает `boston-ledger serve`, "
        "или отсканируйте её код.",
    "Too many wrong tokens from here; wait a moment and open the link again.":
        "Слишком много неверных ключей отсюда; подождите немного и откройте ссылку снова.",
    "This link's token is wrong; open the link that `boston-ledger serve` shows.":
        "Ключ в этой ссылке неверен; откройте ссылку, которую показывает `boston-ledger serve`.",
    "?last= takes a whole number of deals, 1 or more.": "?last= — целое число сдач, 1 или больше.",
    **TARIFF_MESSAGES,
    **{english: russian for english, russian in [  # the words of the shipped tariff files
        ("Classic Boston (chips, basket, labet)", "Классический бостон (фишки, корзина, лабет)"),
        ("simple game: every tour is simple, no double tours", "простая игра: все туры простые, без двойных"),
        ("with purchase: no partners, every contract is played alone",
         "с прикупом: без партнёров, всякий контракт играется в одиночку"),
        ("with remise: the dealer pays 2 into the basket when the turned trump is an ace (deal --ace-turned)",
         "с ремизом: сдающий кладёт 2 в корзину, когда открытый козырь — туз (deal --ace-turned)"),
        ("with labet: a failed declarer fines himself the basket's content",
         "с лабетом: проигравший играющий кладёт в корзину столько, сколько в ней лежит"),
        ("solo (independance): a player alone wins the basket with 8 tricks",
         "соло (индепанданс): игрок в одиночку берёт корзину с 8 взятками"),
        ("petite misère ouverte: twelve cards open, one laid aside, no trick",
         "малый мизер уверт: двенадцать карт открыты, одна отложена, ни одной взятки"),
        ("Philadelphia: a contract to take 10 tricks alone (contract philadelphia)",
         "филадельфия: контракт взять 10 взяток в одиночку (контракт philadelphia)"),
        ("grand misère ouverte: thirteen cards open, no trick",
         "большой мизер уверт: тринадцать карт открыты, ни одной взятки"),
        ("sovereign: a contract to take 12 tricks alone (contract sovereign)",
         "суверен: контракт взять 12 взяток в одиночку (контракт sovereign)"),
        ("grand sovereign: a contract to take all 13 tricks alone, cards closed (contract grand-sovereign)",
         "большой суверен: контракт взять все 13 взяток в одиночку, карты закрыты (контракт grand-sovereign)"),
        ("Boston Fontainebleau (classic with the dealer's 50, carte blanche, double boston in a slam)",
         "Бостон фонтенбло (классика с 50 от сдающего, карт-бланшем и двойным бостоном при шлеме)"),
        ('stake: the dealer alone puts 50 into the basket (seed 004: "The sender must put 50 chips in the basket")',
         "ставка: один сдающий кладёт 50 в корзину (источник 004: «The sender must put 50 chips in the basket»)"),
        ('carte blanche: deal --carte-blanche NAME; 10 from each other player (seed 004: "declares a blank check '
         'before the game starts receives 10 chips from each player")',
         "карт-бланш: deal --carte-blanche ИМЯ; 10 от каждого другого игрока (источник 004: «declares a blank "
         "check before the game starts receives 10 chips from each player»)"),
        ('slam: the boston is paid double too (seed 004: "doubly paid not only for the helmet, but also for the '
         'buy-in")',
         "шлем: бостон тоже платится вдвойне (источник 004: «doubly paid not only for the helmet, but also for "
         "the buy-in»)"),
        ("Samouchitel Boston (points, first/second/third suit, nulls)",
         "Бостон по «Самоучителю» (очки, первая/вторая/третья масть, нули)"),
        ("Boston Tambov (classic with six and eight played with a partner)",
         "Бостон тамбовский (классика с шестью и восемью, играемыми с партнёром)"),
        ('six and eight: with a partner who owes 4 or 5 (together 10 or 13), or alone (seed 004: "to Boston - 3 '
         'bribes, to six - 4 bribes, to eight - 5 bribes")',
         "шесть и восемь: с партнёром, который должен взять 4 или 5 (вместе 10 или 13), или в одиночку "
         "(источник 004: «to Boston - 3 bribes, to six - 4 bribes, to eight - 5 bribes»)"),
        ("their numbers are a house extrapolation of the classic purchase tables (the seed gives none)",
         "их числа — наша экстраполяция классических таблиц прикупа (в источнике их нет)"),
    ]},
}

_DB = "Файл книги [по умолчанию: $BOSTON_LEDGER_DB, иначе ledger.db в папке данных программы]"
_JSON = "Вывести JSON для программ вместо таблиц."
_CONTRACT = ("Контракт тарифа этого вечера (classic: младшая, старшая, соло, девять, мизер, большой-мизер, "
             "мизер-уверт, большой-мизер-уверт) или пас; английские имена тоже.")

# The system's words for the common OS errors, by errno
ERRNO: dict[int, str] = {
    errno.ENOENT: "нет такого файла или папки", errno.EACCES: "нет доступа", errno.EPERM: "операция не позволена",
    errno.ENOTDIR: "это не папка", errno.EISDIR: "это папка", errno.EEXIST: "файл уже есть",
    errno.ENOSPC: "на диске нет места", errno.EROFS: "файловая система только для чтения",
    errno.ENAMETOOLONG: "слишком длинное имя файла", errno.EBUSY: "устройство или ресурс занято",
}

# The placeholders of help pages and usage lines
METAVARS: dict[str, str] = {
    "[OPTIONS]": "[ПАРАМЕТРЫ]", "COMMAND [ARGS]...": "КОМАНДА [АРГУМЕНТЫ]...", "NAME": "ИМЯ", "PATH": "ПУТЬ",
    "NAME|PATH": "ИМЯ|ПУТЬ", "TEXT": "ТЕКСТ", "DATE": "ДАТА", "FILE": "ФАЙЛ", "DIR": "ПАПКА", "RANK": "МАСТЬ",
    "ID": "НОМЕР", "FROM": "ОТ_КОГО", "TO": "КОМУ", "AMOUNT": "СУММА", "CONTRACT": "КОНТРАКТ",
    "PLAYERS": "ИГРОКИ", "N": "N", "en|ru": "en|ru",
}

# Help texts by command path and parameter name; "* NAME" serves a parameter of every command.
HELP: dict[str, str] = {
    "": "Запись и расчёт игры в бостон за настоящим столом.\n\n"
        "Пример: boston-ledger new Анна Борис Вера Глеб --chip-value 0.10",
    "* db": _DB,
    "* as_json": _JSON,
    "* contract": _CONTRACT,
    "* declarer": "Кто купил контракт.",
    "* partner": "Кто поддержал играющего (не указывайте, когда он один).",
    "* tricks": "Взятки самого играющего, 0..13.",
    "* partner_tricks": "Взятки самого партнёра, 0..13.",
    "* rank": "Масть: младшая|старшая для соло и девяти [по умолчанию: младшая]; первая|вторая|третья "
              "в тарифе samouchitel.",
    "* boston": "У кого был бостон (бубновый валет).",
    "* ace_turned": "Открытый сдающим козырь — туз (условие ремиза).",
    "* carte_blanche": "Кто объявил руку без фигур (Фонтенбло).",
    "* condition": "Условие игры (можно повторять).",
    "lang": "Язык вывода: en или ru [по умолчанию: по локали].",
    "install_completion": "Установить дополнение команд для текущей оболочки.",
    "show_completion": "Показать дополнение команд для текущей оболочки, чтобы скопировать или настроить его.",
    "new": "Начать вечер и сделать его текущим.\n\n"
           "Пример: boston-ledger new Анна Борис Вера Глеб --tariff classic --chip-value 0.10 --condition remise",
    "new players": "Игроки в порядке мест; первый названный сдаёт первым.",
    "new tariff": "Имя тарифа из поставки или путь к файлу тарифа.",
    "new chip_value": "Деньги за фишку, положительное десятичное число.",
    "new currency": "Код валюты при суммах, например EUR или RUB.",
    "new name": "Название вечера.",
    "new condition": "Условие игры, о котором договорились на вечер (можно повторять); "
                     "`boston-ledger tariffs show ИМЯ` перечисляет их.",
    "new deals": "Условленная длина вечера в сдачах.",
    "deal": "Записать одну сдачу текущего вечера и показать, что и за что перешло. В терминале\n"
            "недостающее спрашивается, и сдача показывается до записи.\n\n"
            "Пример: boston-ledger deal младшая --declarer Борис --partner Глеб --tricks 5 --partner-tricks 4",
    "edit": "Исправить прежнюю сдачу: все следующие пересчитываются; прежняя запись сохраняется.\n\n"
            "Пример: boston-ledger edit 3 старшая --declarer Анна --tricks 7 --reason \"Анна взяла 7, а не 6\"",
    "edit number": "Номер исправляемой сдачи (см. history).",
    "edit reason": "Почему сдача исправляется.",
    "status": "Итоги, корзина, сыгранные сдачи, тур и кто сдаёт следующим.\n\nПример: boston-ledger status --json",
    "history": "Сдачи вечера с их результатами.\n\nПример: boston-ledger history --corrections",
    "history corrections": "Показать журнал исправленных сдач.",
    "history last": "Сколько последних сдач показать.",
    "history show_all": "Показать все сдачи вечера.",
    "undo": "Взять назад последнюю сдачу (запись о ней сохранится как отменённая).\n\nПример: boston-ledger undo",
    "settle": "Закончить вечер: разделить корзину, перевести фишки в деньги, сказать, кто кому платит.\n\n"
              "Пример: boston-ledger settle --json",
    "check": "Проверить целостность книги: молчит и выходит с 0, когда всё сходится, иначе перечисляет "
             "каждую неполадку и выходит с 1.\n\nПример: boston-ledger check --all",
    "check all_sessions": "Проверить все вечера книги.",
    "reopen": "Открыть текущий рассчитанный вечер снова, чтобы исправить его; прежний расчёт сохраняется.\n\n"
              "Пример: boston-ledger reopen",
    "sessions": "Все вечера книги: номер, название, дата, игроки, тариф, сдачи, состояние, результат.\n\n"
                "Пример: boston-ledger sessions",
    "use": "Сделать текущим другой вечер.\n\nПример: boston-ledger use 2",
    "use session_id": "Вечер, который сделать текущим (см. sessions).",
    "stats": "Статистика по вечерам: сдачи, сыгранные и выигранные контракты, успех, фишки, деньги, пары.\n\n"
             "Пример: boston-ledger stats --player Анна --since 2026-01-01",
    "stats player": "Только этот игрок.",
    "stats since": "Только вечера, начатые в этот день или позже (ГГГГ-ММ-ДД).",
    "chart": "Итог каждого игрока по ходу сдач текущего вечера.\n\nПример: boston-ledger chart --svg evening.svg",
    "chart svg": "Записать график картинкой SVG.",
    "ledger": "Кто сколько должен или кому должны по всем рассчитанным вечерам за вычетом уплаченного, "
              "и наименьшее число платежей.\n\nПример: boston-ledger ledger",
    "paid": "Записать деньги, уплаченные одним другому; книга их зачтёт.\n\nПример: boston-ledger paid Вера Анна 4.00",
    "paid payer": "Кто платит.",
    "paid payee": "Кому платят.",
    "paid amount": "Сколько заплачено, например 4.00.",
    "paid currency": "Валюта вечеров, за которые платят [по умолчанию: единственная, что в них есть].",
    "rescore": "Пересчитать записанный вечер по другому тарифу или условиям и показать разницу; ничего не "
               "меняется.\n\nПример: boston-ledger rescore 1 --tariff fontainebleau",
    "rescore session_id": "Записанный вечер, который пересчитать.",
    "rescore tariff": "Тариф, по которому пересчитать [по умолчанию: собственный тариф вечера с его условиями].",
    "export": "Записать вечер файлами CSV (UTF-8, строка заголовков) для электронной таблицы.\n\n"
              "Пример: boston-ledger export ./evening",
    "export directory": "Папка, куда записать файлы CSV.",
    "demo": "Сыграть показательный классический вечер сдача за сдачей и рассчитать его.\n\n"
            "Пример: boston-ledger demo",
    "demo db": "Сохранить показательный вечер в этом файле, а не во временной базе.",
    "tariffs": "Показать таблицы тарифов из поставки boston-ledger.",
    "tariffs list": "Все тарифы из поставки, по строке на каждый.\n\nПример: boston-ledger tariffs list",
    "tariffs show": "Таблицы тарифа в том виде, как в первоисточнике, и условия, которые он знает.\n\n"
                    "Пример: boston-ledger tariffs show classic --condition philadelphia",
    "tariffs show name": "Тариф из поставки или файл.",
    "tariffs show condition": "Показать с этим условием (можно повторять).",
    "tariffs check": "Проверить файл тарифа: каждая неполадка с её местом, выход с 2, если они есть.\n\n"
                     "Пример: boston-ledger tariffs check my-club.toml",
    "tariffs check path": "Файл тарифа, который проверить.",
    "tariffs new": "Записать копию тарифа, чтобы вы её поправили, затем играйте по ней: `new --tariff ФАЙЛ`.\n\n"
                   "Пример: boston-ledger tariffs new my-club --from classic",
    "tariffs new name": "Имя нового тарифа; запишется в ИМЯ.toml.",
    "tariffs new source": "Тариф, с которого начать.",
    "tariffs new force": "Заменить существующий файл.",
    "serve": "Показать запись вечера на телефонах игроков: страница только для просмотра, которая сама "
             "обновляется после каждой сдачи.\n\nНужно pip install 'boston-ledger\\[serve]'. Печатает ссылку и её "
             "QR-код; Ctrl-C останавливает.\n\nПример: boston-ledger serve --lan",
    "serve session": "Какой вечер показывать [по умолчанию: текущий].",
    "serve port": "Порт, который слушать (0: любой свободный).",
    "serve lan": "Слушать в локальной сети, а не только на этой машине.",
    "serve token_file": "Хранить ключ ссылки в этом файле, один и тот же при каждом запуске [по умолчанию: "
                        "новый ключ при каждом запуске].",
}
