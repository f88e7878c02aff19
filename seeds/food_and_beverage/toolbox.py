"""Food and Beverage: wine and beer sales by region and day, where wines and beers come from,
export and import volumes, critic ratings, prices, grapes, food pairings, harvests and the
user's own wine cellar."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW, country_named, country_phrase
from factory.toolbox.sense import around, sensible, together, within

toolbox = Toolbox()

Region = Annotated[str, Kind("wine_region")]  # a wine region, also a market sales are counted in
Day = Annotated[str, Kind("date")]
Wine = Annotated[str, Kind("wine_name")]
Beer = Annotated[str, Kind("beer_name")]
Producer = Annotated[str, Kind("producer")]
Variety = Annotated[str, Kind("grape_variety")]
Dish = Annotated[str, Kind("dish")]
Year = Annotated[int, Kind("year")]
# The country a wine is made in: what exports are counted from and where a grape is looked for.
# Its own role keeps it from standing in for an importing market (imports of a wine into its
# own country are nil) and from feeding other seeds' requests about a country (nobody asks for
# the weather alerts of "the country Poggio Alto comes from").
OriginCountry = Annotated[str, Kind("country", role="wine_origin")]
# A market a wine is shipped into: a country the user names.
ImportingCountry = Annotated[str, Kind("country", role="importer")]
# A currency the user names to see a price in (the finance seed's convention), so a currency
# resolved there ("yen", "the currency of Japan") can price a bottle here.
NamedCurrency = Annotated[str, Kind("currency_code", role="currency")]
Bottles = Annotated[int, Kind("bottle_count")]

DAYS = 61  # sales and trade records cover the 61 days up to the simulated today
TODAY = NOW.date()
FIRST_DAY = TODAY - timedelta(days=DAYS - 1)
REGIONS = {  # sales region (a wine region and its market) → country it lies in
    "California": "USA", "Oregon": "USA", "New York": "USA", "Bordeaux": "France",
    "Burgundy": "France", "Tuscany": "Italy", "Piedmont": "Italy", "Rioja": "Spain",
    "Mendoza": "Argentina", "Barossa Valley": "Australia", "Marlborough": "New Zealand",
    "Mosel": "Germany",
}
# Producer → (home region, {wine label: grape}). Labels are the wines' names; each producer makes
# one wine per grape, and only grapes its region grows.
PRODUCERS = {
    "Ramey": ("California", {"Coastal Bench": "Chardonnay", "Oakmont Ridge": "Cabernet Sauvignon",
                             "Foggy Hollow": "Pinot Noir"}),
    "Ridge": ("California", {"Summit Rock": "Cabernet Sauvignon", "Old Barn Block": "Zinfandel",
                             "Canyon Terrace": "Merlot"}),
    "Eyrie": ("Oregon", {"Red Hills Reserve": "Pinot Noir", "Cedar Knoll": "Chardonnay", "Willow Bend": "Riesling"}),
    "Beaux Freres": ("Oregon", {"Upper Terrace": "Pinot Noir", "Hawk Meadow": "Chardonnay"}),
    "Dr. Konstantin Frank": ("New York", {"Keuka Shore": "Riesling", "Lakeview Cuvee": "Chardonnay",
                                          "Frost Hill": "Pinot Noir"}),
    "Chateau Palmer": ("Bordeaux", {"Clos des Graves": "Merlot", "Les Cailloux": "Cabernet Sauvignon",
                                    "Cuvee Blanche": "Sauvignon Blanc"}),
    "Domaine Leflaive": ("Burgundy", {"Les Combettes Hautes": "Chardonnay", "Clos Saint-Andre": "Pinot Noir"}),
    "Antinori": ("Tuscany", {"Poggio Alto": "Sangiovese", "Vigna Rossa": "Merlot",
                             "Colle Ventoso": "Cabernet Sauvignon"}),
    "Frescobaldi": ("Tuscany", {"Castel Fiorito": "Sangiovese", "Pieve Antica": "Merlot", "Tenuta Lunga": "Chardonnay"}),
    "Vietti": ("Piedmont", {"Bricco Scuro": "Nebbiolo", "Vigna Nera": "Barbera", "Cascina Bianca": "Chardonnay"}),
    "Muga": ("Rioja", {"Finca Serena": "Tempranillo", "Monte Lobo": "Garnacha"}),
    "Catena": ("Mendoza", {"Alta Montana": "Malbec", "Piedra Blanca": "Chardonnay",
                           "Los Andes Reserva": "Cabernet Sauvignon"}),
    "Penfolds": ("Barossa Valley", {"Ironbark Hill": "Shiraz", "Red Gum Flat": "Cabernet Sauvignon",
                                    "Saltbush Creek": "Chardonnay"}),
    "Cloudy Bay": ("Marlborough", {"Wairau Stones": "Sauvignon Blanc", "Southern Rise": "Pinot Noir",
                                   "Tidewater": "Chardonnay"}),
    "Dr. Loosen": ("Mosel", {"Sonnenhang": "Riesling", "Schieferberg": "Pinot Noir"}),
}
WINES = {label: (producer, grape) for producer, (_, labels) in PRODUCERS.items() for label, grape in labels.items()}
VARIETIES = sorted({grape for _, grape in WINES.values()})
DISHES = {  # grape variety → dish it pairs with
    "Chardonnay": "roast chicken", "Pinot Noir": "duck breast", "Cabernet Sauvignon": "ribeye steak",
    "Merlot": "mushroom risotto", "Sangiovese": "margherita pizza", "Nebbiolo": "truffle pasta",
    "Tempranillo": "lamb chops", "Malbec": "grilled flank steak", "Shiraz": "barbecue ribs",
    "Sauvignon Blanc": "goat cheese salad", "Riesling": "pork schnitzel", "Zinfandel": "pulled pork",
    "Barbera": "sausage lasagne", "Garnacha": "chorizo tapas",
}
BEERS = {  # beer → (brewery, style, country brewed in)
    "Sierra Nevada Pale Ale": ("Sierra Nevada", "Pale Ale", "USA"),
    "Brooklyn Lager": ("Brooklyn Brewery", "Lager", "USA"),
    "Weihenstephaner Hefeweissbier": ("Weihenstephan", "Wheat Beer", "Germany"),
    "Kronenbourg 1664": ("Kronenbourg", "Lager", "France"),
    "Peroni Nastro Azzurro": ("Peroni", "Lager", "Italy"),
    "Estrella Damm": ("Damm", "Lager", "Spain"),
    "Quilmes Cristal": ("Quilmes", "Lager", "Argentina"),
    "Coopers Sparkling Ale": ("Coopers", "Pale Ale", "Australia"),
    "Tuatara Pilsner": ("Tuatara", "Pilsner", "New Zealand"),
    "Heineken": ("Heineken", "Lager", "Netherlands"),
    "Sapporo Premium": ("Sapporo", "Lager", "Japan"),
    "Fuller's London Pride": ("Fuller's", "Bitter", "United Kingdom"),
}
# Markets wines are shipped into, as people name them.
IMPORTERS = ["United Kingdom", "Germany", "USA", "Canada", "Japan", "China", "Netherlands", "Switzerland",
             "Sweden", "Singapore", "South Korea", "Brazil", "Mexico", "France", "Italy"]
REVIEWERS = ["Wine Spectator", "Decanter", "James Suckling", "Vinous"]


def _region_of(wine: str) -> str:
    return PRODUCERS[WINES[wine][0]][0]


def _country_of(wine: str) -> str:
    return REGIONS[_region_of(wine)]


def _origin_is(args: dict, country_param: str) -> bool:
    wine = args.get("product")
    return wine not in WINES or _country_of(wine) == args[country_param]


# The short names people use for wines with long labels.
SHORT_NAMES = {"Red Hills Reserve": "red hills", "Los Andes Reserva": "los andes", "Les Combettes Hautes": "les combettes",
               "Old Barn Block": "old barn", "Lakeview Cuvee": "lakeview", "Red Gum Flat": "red gum"}


def _plain(text: str) -> str:
    """A wine name as it is typed from memory: lower case, no hyphens, no leading "the"."""
    text = " ".join(text.lower().replace("-", " ").split())
    return text.removeprefix("the ")


def _match_label(mention: str) -> str | None:
    """The one catalog wine whose name is the mention, or begins with it; None if not exactly one."""
    text = _plain(mention)
    hits = [name for name in sorted(WINES) if text and (_plain(name) == text or _plain(name).startswith(text + " "))]
    return hits[0] if len(hits) == 1 else None


@dataclass
class BeverageWorld(World):
    wines: dict[str, dict] = field(default_factory=dict)  # wine name → producer, variety, vintage, price, score
    beers: dict[str, dict] = field(default_factory=dict)  # beer name → brewery, style, country
    calories: dict[str, int] = field(default_factory=dict)  # dish → kilocalories per serving
    salt: str = ""  # mixes the world seed into sales and trade figures

    def day(self, text: str) -> date:
        try:
            day = date.fromisoformat(text)
        except ValueError:
            raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None
        require(FIRST_DAY <= day <= TODAY, f"no records for {text}: data covers {FIRST_DAY} to {TODAY}")
        return day

    def figure(self, *key: object, low: int, high: int) -> int:
        """A reproducible figure for a (table, key...) cell of this world."""
        return random.Random(":".join(map(str, (self.salt, *key)))).randint(low, high)


@toolbox.world
def build_world(rng: random.Random) -> BeverageWorld:
    wines = {}
    for name, (producer, grape) in sorted(WINES.items()):
        wines[name] = {
            "producer": producer,
            "variety": grape,
            "vintage": rng.randint(2012, 2021),
            "price_usd": round(rng.uniform(14, 220), 2),
            "score": round(rng.uniform(84, 99), 1),
            "reviewer": rng.choice(REVIEWERS),
        }
    beers = {name: {"brewery": b, "style": s, "country": c} for name, (b, s, c) in BEERS.items()}
    calories = {dish: rng.randint(320, 1100) for dish in DISHES.values()}
    cellar = {name: rng.choice([2, 3, 6, 12]) for name in sorted(rng.sample(sorted(WINES), 4))}
    return BeverageWorld(state={"cellar": cellar}, wines=wines, beers=beers, calories=calories,
                         salt=str(rng.random()))


def _wine(name: str) -> dict:
    known = world(BeverageWorld).wines
    require(name in known, f"unknown wine {name!r}; search the catalog or resolve the wine's name first")
    return known[name]


def _region(location: str) -> str:
    require(location in REGIONS, f"unknown sales region {location!r}; known regions: {', '.join(sorted(REGIONS))}")
    return location


def _currency(code: str) -> float:
    require(code in CURRENCY_BY_CODE, f"unsupported currency {code!r}; use an ISO 4217 code such as EUR")
    return CURRENCY_BY_CODE[code].per_usd


# A currency resolved elsewhere ("yen", the currency of Japan) can price a bottle. Dates are not
# bridged: the days other seeds produce are bookings, birthdays and due dates, mostly ahead of
# today, and the sales of "the day of my hotel booking" is no request anyone makes.
toolbox.bridge("currency_code")
toolbox.written_as("country", country_phrase)


# --- value generators ---------------------------------------------------------------------


@toolbox.values_for("wine_region")
def _regions(w: BeverageWorld) -> list[str]:
    return sorted(REGIONS)


@toolbox.values_for("date")
def _days(w: BeverageWorld) -> list[str]:
    """Days with sales and trade records, the last few weeks more often (people ask about recent days)."""
    every = [(FIRST_DAY + timedelta(days=i)).isoformat() for i in range(DAYS)]
    return every + every[-21:]


@toolbox.values_for("wine_name")
def _wines(w: BeverageWorld) -> list[str]:
    return sorted(w.wines)


@toolbox.values_for("beer_name")
def _beers(w: BeverageWorld) -> list[str]:
    return sorted(w.beers)


@toolbox.values_for("grape_variety")
def _varieties(w: BeverageWorld) -> list[str]:
    return list(VARIETIES)


@toolbox.values_for("country/wine_origin")
def _origins(w: BeverageWorld) -> list[str]:
    return sorted(set(REGIONS.values()))


@toolbox.values_for("country/importer")
def _importers(w: BeverageWorld) -> list[str]:
    return list(IMPORTERS)


@toolbox.values_for("grape_variety", "country")
def _grapes_by_country(w: BeverageWorld) -> list[tuple[str, str]]:
    """(grape, country) pairs for which the country makes a wine of that grape."""
    return sorted({(grape, _country_of(name)) for name, (_, grape) in WINES.items()})


@toolbox.values_for("wine_search_terms")
def _search_terms(w: BeverageWorld) -> list[str]:
    """What people type into a wine search: a grape and a region ("pinot oregon"), a producer."""
    terms = {f"{grape.split()[0].lower()} {_region_of(name).lower()}" for name, (_, grape) in WINES.items()}
    return sorted(terms) + sorted(p.lower() for p in PRODUCERS)


@toolbox.values_for("wine_mention")
def _wine_mentions(w: BeverageWorld) -> list[str]:
    """How people write a wine's name from memory: by its short name ("red hills" for Red Hills
    Reserve), which only the catalogue completes. A name merely in lower case or without its
    hyphen is not drawn: anyone writes it as the catalogue does, so resolving it would be a
    detour. None names the producer or the grape, so looking those up afterwards is a real
    question."""
    return sorted(SHORT_NAMES.values())


@toolbox.values_for("currency_code")
def _currencies(w: BeverageWorld) -> list[str]:
    """Currencies wine buyers price bottles in, the common ones more often."""
    return ["EUR", "GBP", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "NZD", "SEK", "SGD"]


@toolbox.values_for("producer")
def _producers(w: BeverageWorld) -> list[str]:
    return sorted(PRODUCERS)


@toolbox.values_for("dish")
def _dishes(w: BeverageWorld) -> list[str]:
    return sorted(w.calories)


@toolbox.values_for("bottle_count")
def _bottles(w: BeverageWorld) -> list[int]:
    return [1, 2, 3, 6, 6, 12]


@toolbox.values_for("year")
def _years(w: BeverageWorld) -> list[int]:
    return list(range(2012, 2022))


@toolbox.facts_about("wine_name")
def _wine_facts(w: BeverageWorld, wine: str) -> dict:
    """A wine names its producer, grape and home region: a request about it names no other."""
    producer, grape = WINES[wine]
    return {"producer": producer, "grape_variety": grape, "wine_region": _region_of(wine)}


@toolbox.facts_about("wine_mention")
def _mention_facts(w: BeverageWorld, mention: str) -> dict:
    wine = _match_label(mention)
    return _wine_facts(w, wine) if wine else {}


@toolbox.facts_about("wine_region")
def _region_facts(w: BeverageWorld, region: str) -> dict:
    """A wine region lies in a country people know (Tuscany: Italy)."""
    return {"country": REGIONS[region]} if region in REGIONS else {}


@toolbox.facts_about("producer")
def _producer_facts(w: BeverageWorld, producer: str) -> dict:
    return {"wine_region": PRODUCERS[producer][0]}


# --- sales --------------------------------------------------------------------------------

RECENT = around("date", before=DAYS - 1, after=0)  # records reach back 60 days and not into the future


@toolbox.tool(sense=(RECENT,))
def get_top_selling_wine(location: Region, date: Day) -> tuple[Wine, float]:
    """Retrieve the top-selling wine in a sales region on a date.

    Args:
        location: Sales region, e.g. "California" or "Bordeaux".
        date: Sales date in YYYY-MM-DD, within the last 60 days.

    Returns:
        wine_name: the best-selling wine.
        sales_value: the best-selling wine's sales that day (US dollars).
    """
    w = world(BeverageWorld)
    _region(location)
    day = w.day(date)
    # a wine region's own wines sell best there: Marlborough's top seller is no Italian red
    names = sorted(n for n in w.wines if _region_of(n) == location) or \
        sorted(n for n in w.wines if _country_of(n) == REGIONS[location])
    wine = names[w.figure("top-wine", location, day, low=0, high=len(names) - 1)]
    return wine, float(w.figure("wine-sales", location, day, low=400, high=4000))


@toolbox.tool(sense=(RECENT,))
def get_best_selling_beer(location: Region, date: Day) -> tuple[Beer, int]:
    """Retrieve the best-selling beer in a sales region on a date.

    Args:
        location: Sales region, e.g. "Oregon".
        date: Sales date in YYYY-MM-DD, within the last 60 days.

    Returns:
        beer_name: the best-selling beer.
        units_sold: the units of the best-selling beer sold that day.
    """
    w = world(BeverageWorld)
    _region(location)
    day = w.day(date)
    local = sorted(n for n, row in w.beers.items() if row["country"] == REGIONS[location])
    names = local if local and w.figure("local-beer", location, day, low=0, high=9) < 6 else sorted(w.beers)
    beer = names[w.figure("top-beer", location, day, low=0, high=len(names) - 1)]
    return beer, w.figure("beer-units", location, day, low=150, high=9000)


@toolbox.tool(sense=(RECENT,))
def get_total_beverage_sales(location: Region, date: Day) -> float:
    """Get the total wine and beer sales of a region on a date.

    Args:
        location: Sales region.
        date: Sales date in YYYY-MM-DD, within the last 60 days.

    Returns:
        total_usd: the total beverage sales (US dollars).
    """
    w = world(BeverageWorld)
    _region(location)
    day = w.day(date)
    return float(w.figure("total-sales", location, day, low=20000, high=250000))


# --- origins and trade --------------------------------------------------------------------


@toolbox.tool
def get_product_origin(product: Wine) -> OriginCountry:
    """Look up the country of origin of a wine.

    Args:
        product: Exact wine name, e.g. "Poggio Alto".

    Returns:
        origin: the wine's country of origin.
    """
    _wine(product)
    return _country_of(product)


@toolbox.tool
def get_beer_origin(beer: Beer) -> str:
    """Look up the country where a beer is brewed.

    Args:
        beer: Exact beer name, e.g. "Kronenbourg 1664".

    Returns:
        origin: the beer's country of origin.
    """
    w = world(BeverageWorld)
    require(beer in w.beers, f"unknown beer {beer!r}")
    return w.beers[beer]["country"]


def _trading_country(text: str) -> str:
    """The country a trade figure is asked of, however the person names it ("United States":
    USA); an unknown one is an error, never a figure (reading 45 #11: "Narnia" had exports)."""
    country = country_named(text)
    if country is None:
        raise ToolError(f"unknown country {text!r}: name a country, e.g. \"France\"")
    return country


@toolbox.tool(
    # Exports are counted from a wine's own country; another country only re-exports a trickle.
    sense=(RECENT, sensible("a wine is exported from the country it is made in", ("location", "product"),
                            lambda a: _origin_is(a, "location")),
           together("location", "product")),  # a nested country is the origin of this wine, not of another
)
def get_export_quantity(location: OriginCountry, date: Day, product: Wine) -> int:
    """Get the number of bottles of a wine exported from a country on a date (re-exports included).

    Args:
        location: Exporting country, e.g. "France".
        date: Export date in YYYY-MM-DD, within the last 60 days.
        product: Exact wine name.

    Returns:
        quantity: the bottles exported that day.
    """
    w = world(BeverageWorld)
    day = w.day(date)
    _wine(product)
    location = _trading_country(location)
    if location == _country_of(product):
        return w.figure("export", location, day, product, low=500, high=20000)
    return w.figure("re-export", location, day, product, low=0, high=400)  # re-exports are small


@toolbox.tool(
    # A wine's own country imports none of it: that request has a foregone answer.
    sense=(RECENT, sensible("a wine is imported into a country other than its own", ("country", "product"),
                            lambda a: not _origin_is(a, "country"))),
)
def get_import_quantity(country: ImportingCountry, date: Day, product: Wine) -> int:
    """Get the number of bottles of a wine imported into a country on a date.

    Args:
        country: Importing country, e.g. "Germany".
        date: Import date in YYYY-MM-DD, within the last 60 days.
        product: Exact wine name.

    Returns:
        quantity: the bottles imported that day (0 for the wine's own country).
    """
    w = world(BeverageWorld)
    day = w.day(date)
    _wine(product)
    country = _trading_country(country)
    if _country_of(product) == country:
        return 0
    return w.figure("import", country, day, product, low=0, high=6000)


# --- the catalog --------------------------------------------------------------------------


@toolbox.tool
def get_wine_rating(wine_name: Wine) -> tuple[float, str]:
    """Get the latest critic score of a wine.

    Args:
        wine_name: Exact wine name.

    Returns:
        score: the critic score (out of 100).
        reviewer: the publication that gave the score.
    """
    row = _wine(wine_name)
    return row["score"], row["reviewer"]


@toolbox.tool(sense=(within("max_results", 1, 20),), tags=("search",))
def search_wine_catalog(query: Annotated[str, Kind("wine_search_terms")], max_results: int = 5) -> list[Wine]:
    """Search the wine catalog by words in the wine's name, producer, grape, region or country.

    Args:
        query: Words to look for, e.g. "pinot oregon"; all words must match.
        max_results: Maximum number of wine names to return (1-20).

    Returns:
        wine_names: the matching wines (alphabetical).
    """
    w = world(BeverageWorld)
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for name, row in sorted(w.wines.items()):
        text = f"{name} {row['producer']} {row['variety']} {_region_of(name)} {_country_of(name)}".lower()
        if all(word in text for word in words):
            hits.append(name)
    return hits[:max_results]


@toolbox.tool
def get_product_manufacturer(product: Wine) -> Producer:
    """Find the producer (winery) that makes a wine.

    Args:
        product: Exact wine name.

    Returns:
        producer: the winery that makes the wine.
    """
    return _wine(product)["producer"]


@toolbox.tool
def get_producer_region(producer: Producer) -> Region:
    """Find the wine region (and sales region) where a winery is based.

    Args:
        producer: Winery name, e.g. "Antinori".

    Returns:
        region: the winery's home region.
    """
    require(producer in PRODUCERS, f"unknown producer {producer!r}")
    return PRODUCERS[producer][0]


@toolbox.tool
def get_wine_price(wine_name: Wine, currency: NamedCurrency = "USD") -> float:
    """Get the retail price of one bottle of a wine.

    Args:
        wine_name: Exact wine name.
        currency: ISO 4217 currency code of the price, e.g. "EUR" (default US dollars).

    Returns:
        price: the bottle price (in the requested currency, rounded to cents).
    """
    row = _wine(wine_name)
    return round(row["price_usd"] * _currency(currency), 2)


@toolbox.tool
def get_grape_variety(wine_name: Wine) -> Variety:
    """Find the grape variety a wine is made from.

    Args:
        wine_name: Exact wine name.

    Returns:
        variety: the wine's grape variety.
    """
    return _wine(wine_name)["variety"]


@toolbox.tool(
    sense=(sensible("the country makes wine of that grape", ("variety", "country"),
                    lambda a: any(g == a["variety"] and _country_of(n) == a["country"] for n, (_, g) in WINES.items())),),
)
def find_wines_by_variety(variety: Variety, country: OriginCountry) -> list[Wine]:
    """List the wines of a grape variety made in a country.

    Args:
        variety: Grape variety, e.g. "Merlot".
        country: Producing country, e.g. "Italy".

    Returns:
        wine_names: the matching wines (alphabetical; may be empty).
    """
    w = world(BeverageWorld)
    require(variety in VARIETIES, f"unknown grape variety {variety!r}")
    return sorted(n for n, r in w.wines.items() if r["variety"] == variety and _country_of(n) == country)


@toolbox.tool
def get_food_pairing(variety: Variety) -> Dish:
    """Suggest a classic dish to pair with a grape variety.

    Args:
        variety: Grape variety, e.g. "Riesling".

    Returns:
        dish: the suggested dish.
    """
    require(variety in DISHES, f"no pairing known for {variety!r}")
    return DISHES[variety]


@toolbox.tool
def get_dish_calories(dish: Dish) -> int:
    """Get the calories in one serving of a dish.

    Args:
        dish: Dish name, e.g. "duck breast".

    Returns:
        calories: the kilocalories per serving.
    """
    w = world(BeverageWorld)
    require(dish in w.calories, f"no nutrition data for {dish!r}")
    return w.calories[dish]


@toolbox.tool
def get_vintage(wine_name: Wine) -> Year:
    """Find the vintage (harvest year) of a wine.

    Args:
        wine_name: Exact wine name.

    Returns:
        vintage: the wine's vintage year.
    """
    return _wine(wine_name)["vintage"]


@toolbox.tool(
    # A region and a year from earlier calls are about one wine: its home region and its vintage.
    sense=(together("region", "year"), within("year", 2012, 2021)),
)
def get_harvest_yield(region: Region, year: Year) -> float:
    """Get the total grape harvest of a region in a year.

    Args:
        region: Wine region, e.g. "Rioja".
        year: Harvest year between 2012 and 2021.

    Returns:
        tonnes: the harvested grapes (metric tonnes).
    """
    w = world(BeverageWorld)
    require(region in REGIONS, f"unknown region {region!r}")
    require(2012 <= year <= 2021, f"no harvest records for {year}; records cover 2012-2021")
    return w.figure("harvest", region, year, low=8000, high=120000) / 10


@toolbox.tool(tags=("canonicalise",))
def resolve_wine_name(mention: Annotated[str, Kind("wine_mention")]) -> Wine:
    """Resolve a wine's name as someone writes it (any case, without hyphens, or its short name) to the exact catalog name.

    Args:
        mention: The wine's name as written, e.g. "clos saint andre" or "red hills"; the start of a catalog name is enough when only one wine begins with it.

    Returns:
        wine_name: the exact catalog wine name.
    """
    wine = _match_label(mention)
    require(wine is not None, f"no single catalog wine is called {mention!r}; search the catalog by producer, grape or region")
    return wine


# --- my cellar ----------------------------------------------------------------------------


@toolbox.tool(sense=(within("bottles", 1, 24),), tags=("state_change",))
def add_wine_to_cellar(wine_name: Wine, bottles: Bottles) -> int:
    """Add bottles of a wine to the user's cellar.

    Args:
        wine_name: Exact wine name.
        bottles: Number of bottles to add (1-48).

    Returns:
        total_bottles: the bottles of that wine now in the cellar.
    """
    _wine(wine_name)
    require(1 <= bottles <= 48, "bottles must be between 1 and 48")
    cellar = world(BeverageWorld).state.setdefault("cellar", {})
    cellar[wine_name] = cellar.get(wine_name, 0) + bottles
    return cellar[wine_name]


@toolbox.tool
def get_cellar_value(currency: NamedCurrency) -> float:
    """Get the retail value of every bottle in the user's cellar.

    Args:
        currency: ISO 4217 currency code, e.g. "GBP".

    Returns:
        value: the cellar's total value (in the requested currency, rounded to cents).
    """
    w = world(BeverageWorld)
    rate = _currency(currency)
    total = sum(w.wines[name]["price_usd"] * count for name, count in w.state.get("cellar", {}).items())
    return round(total * rate, 2)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# Sales and trade are a market analyst's questions; a wine's maker, grape, dish and price are
# a drinker's. A dinner is never chosen through the wine that sold best in a region, nor a
# region's sales asked through the home region of its own best seller's maker.

