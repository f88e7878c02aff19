"""Food and Beverage: wine and beer sales by region and day, where wines and beers come from,
export and import volumes, critic ratings, prices, grapes, food pairings, harvests and the
user's own wine cellar."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated

from factory.gazetteer import CURRENCY_BY_CODE, NOW, country_named, country_phrase
from factory.sense import around, sensible, together, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world

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
toolbox.written_as("wine_name", "the wine {}")  # a bare label ("Poggio Alto") needs its noun
toolbox.written_as("wine_mention", '"{}"')


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


@toolbox.tool(
    asks=(
        "which wine sold best in {location} on {date}, and for how much?",
        "find the best-selling wine in {location} on {date} and its sales that day",
        "I'm tracking the wine market in {location}. What was the top-selling wine there on {date}, and what were its sales in dollars?",
        "what was the number one wine in {location} on {date}? Give me its sales in dollars too.",
        "look up the top wine by sales in {location} for {date}, with the dollar figure",
        "which wine led sales in {location} on {date}, and how much did it bring in?",
        "get me the leading wine in {location} on {date} and its sales figure",
        "tell me which wine was the bestseller in {location} on {date} and how much revenue it made",
        "I need the top-selling wine for {location} on {date}, plus its sales value.",
        "what was the best-selling wine in {location} on {date}, and what were its sales that day?",
        "tell me the top wine in {location} on {date} and its sales in dollars",
        "which wine came out on top in {location} on {date}, and what were its sales?",
        "find out which wine had the highest sales in {location} on {date} and the amount",
        "what wine did best in {location} on {date}? I'd like its dollar sales as well.",
        "check wine sales in {location} for {date} and tell me the leader and its takings",
        "which wine topped the sales ranking in {location} on {date}, and what did it earn?",
        "name the best-selling wine in {location} on {date}, with its sales value",
        "what was the top-selling wine in {location} on {date}, and what were its sales?",
        "find the wine with the best sales in {location} on {date} and how much it made",
        "which wine sold the most in {location} on {date}, and for how many dollars?",
        "tell me the leading wine by sales in {location} on {date} and its sales figure",
    ),
    gives={
        "wine_name": (
            "the best-selling wine in {location} on {date}",
            "the wine that sold best in {location} on {date}",
            "the top-selling wine in {location} on {date}",
            "the wine that led sales in {location} on {date}",
            "the most popular wine in {location} on {date}",
            "the wine that topped sales in {location} on {date}",
            "the biggest-selling wine in {location} on {date}",
            "the wine with the highest sales in {location} on {date}",
        ),
    },
    sense=(RECENT,),
)
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


@toolbox.tool(
    asks=(
        "which beer sold best in {location} on {date}, and how many units went?",
        "find the best-selling beer in {location} on {date} and the units it sold",
        "what was the top beer in {location} on {date}? Tell me how many units it sold.",
        "which beer moved the most units in {location} on {date}, and how many?",
        "look up the bestselling beer for {location} on {date}, with its unit sales",
        "I'm stocking a bar with beers popular in {location}. Which one sold best there on {date}, and how many units?",
        "tell me the leading beer in {location} on {date} and how many were sold",
        "what beer topped the sales in {location} on {date}, and how many units did it sell?",
        "get the number one beer in {location} for {date} and its units sold",
    ),
    gives={
        "beer_name": (
            "the best-selling beer in {location} on {date}",
            "the beer that sold best in {location} on {date}",
            "the top beer in {location} on {date}",
            "the beer that moved the most units in {location} on {date}",
            "the most popular beer in {location} on {date}",
        ),
    },
    sense=(RECENT,),
)
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


@toolbox.tool(
    asks=(
        "what were the total wine and beer sales in {location} on {date}?",
        "give me the total beverage sales in {location} on {date}",
        "how much wine and beer was sold in {location} on {date}, in dollars?",
        "what did drink sales add up to in {location} on {date}?",
        "look up the combined wine and beer revenue for {location} on {date}",
        "I'm comparing markets. How much did {location} spend on wine and beer on {date}?",
        "tell me the total takings from wine and beer in {location} on {date}",
        "how big were beverage sales in {location} on {date}, all wine and beer together?",
        "get the dollar total of wine and beer sold in {location} on {date}",
    ),
    sense=(RECENT,),
)
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


@toolbox.tool(
    asks=(
        "which country does {product} come from?",
        "find the country of origin of {product}",
        "where is {product} made? I need the country.",
        "what country produces {product}?",
        "look up which country {product} is from",
        "tell me the country {product} is made in",
        "what's the country of origin for {product}?",
        "trace {product} back to its country of origin",
    ),
    gives={
        "origin": (
            "the country {product} comes from",
            "the country where {product} is made",
            "the country of origin of {product}",
            "the country that produces {product}",
            "the producing country of {product}",
            "the country where {product} is produced",
            "the country whose vineyards produce {product}",
            "the source country of {product}",
            "the country {product} is from",
            "the country {product} hails from",
            "the country {product} originates from",
            "the country {product} was made in",
            "the nation {product} comes from",
            "the country {product} is produced in",
            "the origin country of {product}",
        ),
    },
)
def get_product_origin(product: Wine) -> OriginCountry:
    """Look up the country of origin of a wine.

    Args:
        product: Exact wine name, e.g. "Poggio Alto".

    Returns:
        origin: the wine's country of origin.
    """
    _wine(product)
    return _country_of(product)


@toolbox.tool(
    asks=(
        "in which country is {beer} brewed?",
        "find out where {beer} is brewed",
        "I'd like to know the country {beer} comes from.",
        "where does {beer} get brewed? Just the country.",
        "look up the brewing country of {beer}",
        "which country makes {beer}?",
        "tell me the country of origin of {beer}",
    ),
)
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
    asks=(
        "how many bottles of {product} did {location} export on {date}?",
        "get the export volume of {product} from {location} on {date}",
        "I'm studying the trade in {product}. How much of it did {location} ship abroad on {date}?",
        "what quantity of {product} was exported from {location} on {date}?",
        "how many bottles of {product} were exported from {location} on {date}?",
        "look up the exports of {product} out of {location} on {date}",
        "find the number of bottles of {product} shipped out of {location} on {date}",
        "what were the export figures for {product} from {location} on {date}, in bottles?",
        "give me the bottle count of {product} exported by {location} on {date}",
        "I'm reconciling shipping manifests for {product}. How many bottles were shipped abroad from {location} on {date}?",
        "our distributor wants the outbound volume of {product} from {location} on {date}. How many bottles was it?",
        "tally the bottles of {product} that {location} sent overseas on {date}",
        "on {date}, how many bottles of {product} did {location} ship to foreign buyers?",
        "for a trade report, I want the export count of {product} leaving {location} on {date}, in bottles.",
        "how much of {product} did {location} export on {date}, in bottles?",
        "what was the bottle count of {product} exported from {location} on {date}?",
        "check the exports of {product} from {location} on {date}: how many bottles?",
        "find out how many bottles of {product} were shipped abroad from {location} on {date}",
        "how many bottles of {product} left {location} for buyers abroad on {date}?",
        "tell me the number of bottles of {product} exported from {location} on {date}",
        "what volume of {product} did {location} export on {date}, in bottles?",
    ),
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
    asks=(
        "how many bottles of {product} did {country} import on {date}?",
        "get the import volume of {product} into {country} on {date}",
        "how much of {product} was shipped into {country} on {date}?",
        "how many bottles of {product} arrived in {country} as imports on {date}?",
        "look up the imports of {product} into {country} for {date}",
        "I'm checking demand for {product} abroad. How many bottles did {country} bring in on {date}?",
        "find the number of bottles of {product} imported by {country} on {date}",
        "what were the import figures for {product} in {country} on {date}, in bottles?",
        "tell me how many bottles of {product} entered {country} on {date}",
    ),
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


@toolbox.tool(
    asks=(
        "how did the critics rate {wine_name}, and who rated it?",
        "get the latest critic score of {wine_name} and the publication that gave it",
        "I'm thinking of buying {wine_name}. What score did the critics give it, and where was it published?",
        "what's the critic score for {wine_name}, and which publication gave it?",
        "look up the rating of {wine_name} along with who reviewed it",
        "how many points did {wine_name} get from the critics, and from whom?",
        "which critic reviewed {wine_name} most recently, and what score did it get?",
        "is {wine_name} well reviewed? Give me the score and the reviewer.",
        "find the most recent review score for {wine_name} and the name of the reviewer",
        "before I recommend {wine_name} to a client, what score have the critics given it, and in which publication?",
        "quote the most recent critics' points for {wine_name} and name the outlet that awarded them",
        "how does {wine_name} fare with the critics? Name the publication along with the points.",
        "for our wine list notes, I'd like the critic rating of {wine_name} and the publication that gave it.",
    ),
)
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


@toolbox.tool(
    asks=(
        'search the wine catalog for "{query}"[ and give me at most {max_results} names]',
        'which wines does the catalog list for "{query}"?[ Show me up to {max_results}.]',
        'look up wines matching "{query}"[, no more than {max_results}]',
        'what wines come up for "{query}" in the catalog?',
        'find me wines that match "{query}"[, {max_results} at most]',
        "I'm browsing for \"{query}\". Which wines do you have?[ Just the first {max_results}.]",
        'pull up the catalog wines for "{query}"[ and list up to {max_results}]',
        'list the wines in the catalog that fit "{query}"',
        'do you carry anything for "{query}"? Give me the wine names[, up to {max_results}].',
    ),
    sense=(within("max_results", 1, 20),),
    tags=("search",),
)
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


@toolbox.tool(
    asks=(
        "who makes {product}?",
        "find the winery that produces {product}",
        "tell me which producer is behind {product}",
        "which estate makes {product}?",
        "look up the producer of {product}",
        "who is the winemaker behind {product}?",
        "I'd like to know who produces {product}.",
        "name the producer that bottles {product}",
        "which winery is behind {product}?",
        "who produces {product}? I want the winery.",
        "which producer makes {product}?",
        "tell me the winery behind {product}",
        "find out who makes {product}",
    ),
    gives={
        "producer": (
            "the producer of {product}",
            "the winery that makes {product}",
            "the winery behind {product}",
            "the maker of {product}",
            "the estate that produces {product}",
            "the house that bottles {product}",
            "the winemaker responsible for {product}",
            "the producing estate of {product}",
        ),
    },
)
def get_product_manufacturer(product: Wine) -> Producer:
    """Find the producer (winery) that makes a wine.

    Args:
        product: Exact wine name.

    Returns:
        producer: the winery that makes the wine.
    """
    return _wine(product)["producer"]


@toolbox.tool(
    asks=(
        "in which wine region is {producer} based?",
        "find the home region of {producer}",
        "where is {producer} located? I need the wine region.",
        "which region does {producer} make its wine in?",
        "look up the wine region of {producer}",
        "point me to the wine region of {producer}",
        "which wine region is home to {producer}?",
        "I'd like to visit {producer}. Which wine region should I head to?",
    ),
    gives={
        "region": (
            "the home region of {producer}",
            "the wine region of {producer}",
            "the wine region that is home to {producer}",
            "the wine region that houses {producer}",
            "the growing region of {producer}",
            "the winegrowing area of {producer}",
            "the region that hosts the vineyards of {producer}",
        ),
    },
)
def get_producer_region(producer: Producer) -> Region:
    """Find the wine region (and sales region) where a winery is based.

    Args:
        producer: Winery name, e.g. "Antinori".

    Returns:
        region: the winery's home region.
    """
    require(producer in PRODUCERS, f"unknown producer {producer!r}")
    return PRODUCERS[producer][0]


@toolbox.tool(
    asks=(
        "what does a bottle of {wine_name} cost[ in {currency}]?",
        "get the retail price of {wine_name}[ in {currency}]",
        "how much is {wine_name} per bottle[ in {currency}]?",
        "what's the shelf price of {wine_name}[ in {currency}]?",
        "look up how much one bottle of {wine_name} sells for[ in {currency}]",
        "I'm thinking of picking up {wine_name}. What does a bottle go for[ in {currency}]?",
        "find the bottle price of {wine_name}[ in {currency}]",
        "tell me what {wine_name} costs a bottle[ in {currency}]",
        "how expensive is a bottle of {wine_name}[ in {currency}]?",
        "we're planning a dinner party around {wine_name}. What does one bottle retail for[ in {currency}]?",
        "quote the retail bottle price of {wine_name}[ in {currency}]",
        "I want to gift {wine_name}. How much will a single bottle set me back[ in {currency}]?",
        "what would I pay at a shop for one bottle of {wine_name}[, in {currency}]?",
    ),
)
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


@toolbox.tool(
    asks=(
        "which grape is {wine_name} made from?",
        "find the grape variety of {wine_name}",
        "what grape goes into {wine_name}?",
        "what variety is {wine_name}?",
        "look up which grape {wine_name} is made of",
        "tell me the grape behind {wine_name}",
        "I'm curious about {wine_name}. Which grape is it?",
        "which grape variety was used for {wine_name}?",
        "name the grape of {wine_name}",
        "which grape variety goes into {wine_name}?",
        "tell me what grape {wine_name} is made from",
        "find out the grape used for {wine_name}",
    ),
    gives={
        "variety": (
            "the grape of {wine_name}",
            "the grape {wine_name} is made from",
            "the grape variety behind {wine_name}",
            "the variety used in {wine_name}",
            "the grape that goes into {wine_name}",
            "the grape used to make {wine_name}",
            "the grape variety of {wine_name}",
            "the varietal of {wine_name}",
        ),
    },
)
def get_grape_variety(wine_name: Wine) -> Variety:
    """Find the grape variety a wine is made from.

    Args:
        wine_name: Exact wine name.

    Returns:
        variety: the wine's grape variety.
    """
    return _wine(wine_name)["variety"]


@toolbox.tool(
    asks=(
        "which wines made from {variety} come from {country}?",
        "list the wines from {country} made with {variety}",
        "I'm looking for a wine made from {variety} in {country}. Which ones are there?",
        "what wines does {country} make from {variety}?",
        "show me the wines made from {variety} in {country}",
        "are there any wines from {country} made with {variety}? List them.",
        "look up the wines produced in {country} from {variety}",
        "I'd like a wine made from {variety} that comes from {country}. What are my options?",
        "search the catalog for wines made from {variety} in {country}",
    ),
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


@toolbox.tool(
    asks=(
        "what dish goes well with {variety}?",
        "suggest a dish to pair with {variety}",
        "I'm planning dinner. Which dish pairs well with {variety}?",
        "what should I cook to go with {variety}?",
        "what food matches {variety}?",
        "recommend something to eat with {variety}",
        "which dish is the classic match for {variety}?",
        "I'm opening something made from {variety} tonight. What should I serve with it?",
        "find a good food pairing for {variety}",
    ),
    gives={
        "dish": (
            "the dish that pairs with {variety}",
            "the dish suggested to go with {variety}",
            "the classic dish to serve with {variety}",
            "the food that goes with {variety}",
            "the dish recommended alongside {variety}",
            "the dish to go with {variety}",
            "the classic food match for {variety}",
            "the dish that goes well with {variety}",
            "the food to pair with {variety}",
            "the classic pairing for {variety}",
        ),
    },
)
def get_food_pairing(variety: Variety) -> Dish:
    """Suggest a classic dish to pair with a grape variety.

    Args:
        variety: Grape variety, e.g. "Riesling".

    Returns:
        dish: the suggested dish.
    """
    require(variety in DISHES, f"no pairing known for {variety!r}")
    return DISHES[variety]


@toolbox.tool(
    asks=(
        "how many calories are in a serving of {dish}?",
        "get the calories per serving of {dish}",
        "I'm counting calories. What does one serving of {dish} come to?",
        "what's the calorie count for one portion of {dish}?",
        "how fattening is {dish}? Give me the calories per serving.",
        "look up the calories in a serving of {dish}",
        "tell me how many calories one serving of {dish} has",
        "how many kcal does a portion of {dish} contain?",
        "I'm on a diet. How many calories are in a plate of {dish}?",
    ),
)
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


@toolbox.tool(
    asks=(
        "what vintage is {wine_name}?",
        "find the vintage year of {wine_name}",
        "in which year were the grapes for {wine_name} harvested?",
        "look up the harvest year of {wine_name}",
        "tell me the vintage of {wine_name}",
        "how old is {wine_name}? I mean which vintage.",
        "what year does the label of {wine_name} show as its vintage?",
        "I need the vintage of {wine_name} for my tasting notes.",
        "which vintage is {wine_name}?",
        "tell me which vintage {wine_name} is",
        "find out the harvest year of {wine_name}",
    ),
    gives={
        "vintage": (
            "the vintage year of {wine_name}",
            "the year {wine_name} was harvested",
            "the vintage of {wine_name}",
            "the harvest year of {wine_name}",
            "the year the grapes for {wine_name} were picked",
        ),
    },
)
def get_vintage(wine_name: Wine) -> Year:
    """Find the vintage (harvest year) of a wine.

    Args:
        wine_name: Exact wine name.

    Returns:
        vintage: the wine's vintage year.
    """
    return _wine(wine_name)["vintage"]


@toolbox.tool(
    asks=(
        "how big was the grape harvest in {region} in {year}?",
        "get the size of the grape harvest in {region} in {year}",
        "how many tonnes of grapes did {region} harvest in {year}?",
        "what was the harvest yield in {region} for {year}?",
        "look up how many tonnes of grapes were picked in {region} in {year}",
        "how much fruit came in from the vineyards of {region} in {year}, in tonnes?",
        "find the total grape harvest for {region} in {year}",
        "I'm comparing vintages. How large was the harvest in {region} in {year}?",
        "give me the tonnage of grapes harvested in {region} in {year}",
        "I'm writing up a vintage report. How many tonnes of grapes did growers in {region} bring in during {year}?",
        "tell me the size of the grape harvest in {region} in {year}, in tonnes",
        "was {year} a big year for {region}? How many tonnes were picked?",
        "a buyer is weighing vintages: what tonnage did the vineyards of {region} yield in {year}?",
    ),
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


@toolbox.tool(
    asks=(
        "which wine in the catalog is {mention}?",
        "find the exact catalog name of the wine I know as {mention}",
        "I only know the wine as {mention}. What is it called in the catalog?",
        "what's the proper catalog name for {mention}?",
        "look up the full catalog name of {mention}",
        "match {mention} to a wine in the catalog and give me its exact name",
        "a friend recommended a wine called {mention}. What's its official name?",
        "which wine in the catalog goes by {mention}?",
        "work out the exact wine name for {mention}",
    ),
    gives={
        "wine_name": (
            "{mention}",
            "the wine I know as {mention}",
            "the wine called {mention}",
            "the wine I remember as {mention}",
            "the wine named {mention}",
            "the {mention} wine",
            "the wine people call {mention}",
            "the wine that goes by {mention}",
            "the wine I jotted down as {mention}",
            "the wine written on my list as {mention}",
            "the wine someone recommended to me as {mention}",
            "the wine I tasted under the name {mention}",
            "the wine sold to me as {mention}",
            "the wine known as {mention}",
            "the wine I only know as {mention}",
            "the {mention} bottling",
            "the wine printed as {mention} on my receipt",
            "the wine the waiter called {mention}",
            "the wine my partner calls {mention}",
            "the wine my shop lists as {mention}",
            "the wine going by the name {mention}",
        ),
    },  # people name the wine as they remember it; finding its label is the agent's part
    tags=("canonicalise",),
)
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


@toolbox.tool(
    asks=(
        "add {bottles} bottle(s) of {wine_name} to my cellar and tell me how many I have now",
        "put {bottles} bottle(s) of {wine_name} in my cellar; how many of that wine do I have afterwards?",
        "I just bought {bottles} bottle(s) of {wine_name}. Log the purchase in my cellar and say how many I've got.",
        "add {bottles} bottle(s) of {wine_name} to my cellar records and give me the new total",
        "I've bought {bottles} bottle(s) of {wine_name} for my cellar. Update it and tell me the count.",
        "log {bottles} bottle(s) of {wine_name} into my wine cellar; what's the total for that wine now?",
        "stock {bottles} bottle(s) of {wine_name} in my cellar and report how many bottles of it I own",
        "{bottles} bottle(s) of {wine_name} just arrived for my cellar. Log the delivery and tell me how many I have in all.",
        "add {bottles} bottle(s) of {wine_name} to my cellar and tell me the new number",
        "add {bottles} bottle(s) of {wine_name} to my wine cellar, then tell me how many bottles of it I have in total",
        "I've picked up {bottles} bottle(s) of {wine_name}; add that to my cellar and tell me how many I now have.",
    ),
    sense=(within("bottles", 1, 24),),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=(
        "what is my wine cellar worth in {currency}?",
        "give me the retail value of my cellar in {currency}",
        "I'm insuring my wine collection. How much is the whole cellar worth in {currency}?",
        "how much would my cellar fetch at retail, in {currency}?",
        "value my wine cellar in {currency}",
        "what's the total value of all the bottles in my cellar, in {currency}?",
        "tally up what my wine collection is worth in {currency}",
        "work out the retail value of everything in my cellar, in {currency}",
        "tell me what my cellar adds up to in {currency}",
    ),
)
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

toolbox.goal(
    "study a drinks market",
    wants="see what sold in a region on a day, where the best sellers come from and how much of them crossed borders",
    role="market analyst",
    tools=("get_top_selling_wine", "get_best_selling_beer", "get_total_beverage_sales", "get_product_origin",
           "get_beer_origin", "get_export_quantity", "get_import_quantity"),
)
toolbox.goal(
    "know a wine's background",
    wants="learn where a wine comes from, who makes it, its grape and vintage, and how that year's harvest went",
    role="wine lover",
    tools=("resolve_wine_name", "search_wine_catalog", "get_product_origin", "get_product_manufacturer",
           "get_producer_region", "get_grape_variety", "get_vintage", "get_harvest_yield", "get_wine_rating"),
)
toolbox.goal(
    "plan a dinner around a wine",
    wants="choose a wine and the dish to serve with it, and know what that dish and bottle come to",
    role="host",
    tools=("resolve_wine_name", "search_wine_catalog", "get_wine_rating", "get_wine_price", "get_grape_variety",
           "get_food_pairing", "get_dish_calories", "find_wines_by_variety"),
)
toolbox.goal(
    "build my cellar",
    wants="find wines worth buying, like one I know, add them to my cellar and know what it is worth",
    role="collector",
    tools=("resolve_wine_name", "search_wine_catalog", "get_wine_rating", "get_wine_price", "get_vintage",
           "get_grape_variety", "get_product_origin", "find_wines_by_variety", "add_wine_to_cellar",
           "get_cellar_value"),
)
# Across seeds: a wine bought from abroad is priced in the buyer's own currency
# (finance_stocks names the currency of a country or of a currency's name).
toolbox.goal(
    "buy wine from abroad",
    wants="know what a wine, and my cellar, come to in my own currency before I buy",
    role="collector",
    tools=("resolve_wine_name", "get_wine_price", "get_wine_rating", "add_wine_to_cellar", "get_cellar_value",
           "currency_name_to_code", "get_country_currency_code"),
)
