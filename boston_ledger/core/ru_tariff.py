"""Russian for the messages of `tariff.py`: reading and validating tariff files.

Merged into the catalogue of `ru.py`. Locations (file names, `[table] key` paths), TOML keys and
values, option names and commands stay as they are in the English.
"""

MESSAGES: dict[str, str] = {
    # finding and reading files
    "{path} is a folder; give the path of a tariff's TOML file":
        "{path} — это папка; укажите путь к TOML-файлу тарифа",
    "none":
        "нет",
    "no tariff {name!r}: give a shipped tariff ({known}) or the path of a TOML file":
        "нет тарифа {name!r}: укажите тариф из поставки ({known}) или путь к TOML-файлу",
    "not a UTF-8 text file; a tariff is TOML text":
        "не текстовый файл в кодировке UTF-8; тариф — это текст в формате TOML",
    "cannot read tariff file {path}: {reason}":
        "не удаётся прочитать файл тарифа {path}: {reason}",
    "not valid TOML: {error}":
        "некорректный TOML: {error}",
    "must be a list of dotted key paths such as \"contracts.junior.with_partner\"":
        "должно быть списком путей к ключам через точку, например \"contracts.junior.with_partner\"",
    "{path!r} is not in the tariff":
        "{path!r} нет в тарифе",
    "must name a shipped tariff or a file":
        "должно называть тариф из поставки или файл",
    "{name!r} extends itself in a loop":
        "{name!r} по кругу расширяет сам себя",
    # conditions
    "the tariff has no condition {name!r}; its conditions: {known}":
        "в тарифе нет условия {name!r}; его условия: {known}",
    "condition {name!r} is named twice; give each condition once":
        "условие {name!r} названо дважды; называйте каждое условие один раз",
    "{origin} with condition {name}":
        "{origin} с условием {name}",
    # a copy to edit
    "a tariff name is letters, digits, '-' and '_', not {name!r}":
        "имя тарифа состоит из букв, цифр, '-' и '_'; {name!r} не подходит",
    "{path} already exists; choose another name or add --force to replace it":
        "{path} уже существует; выберите другое имя или добавьте --force, чтобы заменить файл",
    "cannot write {path}: {reason}":
        "не удаётся записать {path}: {reason}",
    "(and {more} more: `boston-ledger tariffs check FILE` lists them)":
        "(и ещё {more}: их все перечислит `boston-ledger tariffs check FILE`)",
    # validation
    "top level":
        "верхний уровень",
    "missing table [{key}]":
        "нет таблицы [{key}]",
    "[{key}] must be a table":
        "[{key}] должно быть таблицей",
    "must be a table":
        "должно быть таблицей",
    "unknown key {key!r}; expected one of {allowed}":
        "неизвестный ключ {key!r}; ожидается один из: {allowed}",
    "missing {key} (a whole number {low}..{high})":
        "нет ключа {key} (целое число от {low} до {high})",
    "must be a whole number {low}..{high}, not {value!r}":
        "должно быть целым числом от {low} до {high}, а не {value!r}",
    "must be a non-empty string, not {value!r}":
        "должно быть непустой строкой, а не {value!r}",
    "must be one of {choices}, not {value!r}":
        "должно быть одним из значений ({choices}), а не {value!r}",
    "must be a list of non-empty strings":
        "должно быть списком непустых строк",
    "no contract defined":
        "не задано ни одного контракта",
    "must be a non-empty list of multipliers (whole numbers 1..100), one per tour":
        "должно быть непустым списком множителей (целые числа от 1 до 100), по одному на каждый тур",
    "a points tariff has no basket: stake = 0, no remise, all_pass = \"nothing\"":
        "у тарифа со счётом в очках нет корзины: stake = 0, без remise, all_pass = \"nothing\"",
    "a points tariff pays no boston: must be 0":
        "тариф со счётом в очках не платит за бостон: должно быть 0",
    "must be \"none\" exactly when the tariff scores points":
        "должно быть \"none\" тогда и только тогда, когда тариф ведёт счёт в очках",
    "must be two whole numbers (declarer, partner) summing to bar = {bar}":
        "должно быть двумя целыми числами (играющий, партнёр), в сумме равными bar = {bar}",
    "unknown rank {rank!r}; [ranks] defines {known}":
        "неизвестная масть {rank!r}; в [ranks] заданы: {known}",
    "an empty table; give a value for each rank":
        "пустая таблица; укажите значение для каждой масти",
    "{name!r} is the all-pass, not a contract":
        "{name!r} — это «все пасуют», а не контракт",
    "must be one of the contract's ranks ({ranks})":
        "должно быть одной из мастей контракта ({ranks})",
    "unknown schedule {name!r}; [schedules] defines {known}":
        "неизвестная таблица выплат {name!r}; в [schedules] заданы: {known}",
    "(none)":
        "(нет)",
    "its table has no value for rank {rank!r}, which {where} is played in":
        "в ней нет значения для масти {rank!r}, а {where} играется в этой масти",
    "needs `alone` or `with_partner` (a schedule name)":
        "нужен ключ `alone` или `with_partner` (имя таблицы выплат)",
    "schedule {name!r} has `shares`, which need a partner; name a schedule without `shares`":
        "в таблице выплат {name!r} есть `shares`, а для них нужен партнёр; укажите таблицу выплат без `shares`",
    "must name a `tricks` schedule":
        "должно называть таблицу выплат вида `tricks`",
    "must be a table of changes merged over the tariff":
        "должно быть таблицей изменений, накладываемых на тариф",
    "must be true or false":
        "должно быть true или false",
}
