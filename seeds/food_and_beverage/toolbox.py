"""Food and Beverage: wine and beer sales, origins, trade volumes, ratings and pairings."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated

from factory.gazetteer import NOW
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world

toolbox = Toolbox()

Region = Annotated[str, Kind("sales_region")]
Country = Annotated[str, Kind("country")]
Day = Annotated[str, Kind("date")]
Wine = Annotated[str, Kind("wine_name")]
Beer = Annotated[str, Kind("beer_name")]
Product = Annotated[str, Kind("beverage")]
Producer = Annotated[str, Kind("producer")]
Variety = Annotated[str, Kind("grape_variety")]
Dish = Annotated[str, Kind("dish")]
Currency = Annotated[str, Kind("currency_code")]
Year = Annotated[int, Kind("year")]

DAYS = 61  # sales and trade records cover the 61 days up to the simulated today
FIRST_DAY = NOW.date() - timedelta(days=DAYS - 1)
REGIONS = {  # sales region → country it lies in
    "California": "USA", "Oregon": "USA", "New York": "USA", "Bordeaux": "France",
    "Burgundy": "France", "Tuscany": "Italy", "Piedmont": "Italy", "Rioja": "Spain",
    "Mendoza": "Argentina", "Barossa Valley": "Australia", "Marlborough": "New Zealand",
    "Mosel": "Germany",
}
VARIETIES = ["Chardonnay", "Pinot Noir", "Cabernet Sauvignon", "Merlot", "Sangiovese", "Nebbiolo",
             "Tempranillo", "Malbec", "Shiraz", "Sauvignon Blanc", "Riesling", "Zinfandel"]
PRODUCERS = {  # producer → home region
    "Ramey": "California", "Ridge": "California", "Eyrie": "Oregon", "Dr. Konstantin Frank": "New York",
    "Chateau Palmer": "Bordeaux", "Domaine Leflaive": "Burgundy", "Antinori": "Tuscany", "Vietti": "Piedmont",
    "Muga": "Rioja", "Catena": "Mendoza", "Penfolds": "Barossa Valley", "Cloudy Bay": "Marlborough",
    "Dr. Loosen": "Mosel", "Beaux Freres": "Oregon", "Frescobaldi": "Tuscany",
}
BEER_STYLES = ["Lager", "IPA", "Stout", "Pilsner", "Wheat Ale", "Porter"]
BREWERIES = ["Sierra Nevada", "Brooklyn", "Guinness", "Pilsner Urquell", "Weihenstephan", "Kronenbourg",
             "Peroni", "Estrella", "Quilmes", "Coopers", "Tuatara"]
DISHES = {  # grape variety → dish it pairs with
    "Chardonnay": "roast chicken", "Pinot Noir": "duck breast", "Cabernet Sauvignon": "ribeye steak",
    "Merlot": "mushroom risotto", "Sangiovese": "margherita pizza", "Nebbiolo": "truffle pasta",
    "Tempranillo": "lamb chops", "Malbec": "grilled flank steak", "Shiraz": "barbecue ribs",
    "Sauvignon Blanc": "goat cheese salad", "Riesling": "pork schnitzel", "Zinfandel": "pulled pork",
}
USD_RATES = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "JPY": 149.5, "AUD": 1.53, "CAD": 1.36}


@dataclass
class BeverageWorld(World):
    wines: dict[str, dict] = field(default_factory=dict)  # wine name → producer, variety, vintage, price
    beers: dict[str, dict] = field(default_factory=dict)  # beer name → brewery, style, country
    calories: dict[str, int] = field(default_factory=dict)
    salt: str = ""  # mixes the world seed into sales and trade figures

    def day(self, text: str) -> date:
        try:
            day = date.fromisoformat(text)
        except ValueError:
            raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None
        last = FIRST_DAY + timedelta(days=DAYS - 1)
        require(FIRST_DAY <= day <= last, f"no records for {text}: data covers {FIRST_DAY} to {last}")
        return day

    def figure(self, *key: object, low: int, high: int) -> int:
        """A reproducible figure for a (table, key...) cell of this world."""
        return random.Random(":".join(map(str, (self.salt, *key)))).randint(low, high)


@toolbox.world
def build_world(rng: random.Random) -> BeverageWorld:
    wines = {}
    for producer, region in PRODUCERS.items():
        for variety in rng.sample(VARIETIES, 3):
            wines[f"{producer} {variety}"] = {
                "producer": producer,
                "variety": variety,
                "vintage": rng.randint(2012, 2021),
                "price_usd": round(rng.uniform(14, 220), 2),
                "score": round(rng.uniform(84, 99), 1),
                "reviewer": rng.choice(["Wine Spectator", "Decanter", "James Suckling", "Vinous"]),
            }
    beers = {}
    for brewery in BREWERIES:
        style = rng.choice(BEER_STYLES)
        country = rng.choice(sorted(set(REGIONS.values())))
        beers[f"{brewery} {style}"] = {"brewery": brewery, "style": style, "country": country}
    calories = {dish: rng.randint(320, 1100) for dish in DISHES.values()}
    return BeverageWorld(wines=wines, beers=beers, calories=calories, salt=str(rng.random()))


def _wine(name: str) -> dict:
    known = world(BeverageWorld).wines
    require(name in known, f"unknown wine {name!r}; search the catalog for exact wine names")
    return known[name]


def _product_country(w: BeverageWorld, product: str) -> str:
    if product in w.wines:
        return REGIONS[PRODUCERS[w.wines[product]["producer"]]]
    if product in w.beers:
        return w.beers[product]["country"]
    raise ToolError(f"unknown beverage {product!r}")


@toolbox.values_for("sales_region")
def _regions(w: BeverageWorld) -> list[str]:
    return sorted(REGIONS)


@toolbox.values_for("date")
def _days(w: BeverageWorld) -> list[str]:
    return [(FIRST_DAY + timedelta(days=i)).isoformat() for i in range(DAYS)]


@toolbox.values_for("wine_name")
def _wines(w: BeverageWorld) -> list[str]:
    return sorted(w.wines)


@toolbox.values_for("beer_name")
def _beers(w: BeverageWorld) -> list[str]:
    return sorted(w.beers)


@toolbox.values_for("grape_variety")
def _varieties(w: BeverageWorld) -> list[str]:
    return list(VARIETIES)


@toolbox.values_for("country")
def _countries(w: BeverageWorld) -> list[str]:
    return sorted(set(REGIONS.values()))


@toolbox.values_for("wine_search_terms")
def _search_terms(w: BeverageWorld) -> list[str]:
    return sorted({f"{row['variety'].split()[0].lower()} {REGIONS[PRODUCERS[row['producer']]].lower()}" for row in w.wines.values()})


@toolbox.values_for("wine_mention")
def _wine_mentions(w: BeverageWorld) -> list[str]:
    """How people name a wine: "the Ramey chardonnay", "chardonnay by ramey"."""
    mentions = []
    for name, row in sorted(w.wines.items()):
        mentions += [f"the {row['producer']} {row['variety'].lower()}", f"{row['variety'].lower()} by {row['producer'].lower()}"]
    return mentions


@toolbox.values_for("currency_code")
def _currencies(w: BeverageWorld) -> list[str]:
    return sorted(USD_RATES)


@toolbox.values_for("producer")
def _producers(w: BeverageWorld) -> list[str]:
    return sorted(PRODUCERS)


@toolbox.values_for("bottle_count")
def _bottles(w: BeverageWorld) -> list[int]:
    return [1, 2, 3, 6, 12, 24]


@toolbox.values_for("year")
def _years(w: BeverageWorld) -> list[int]:
    return list(range(2012, 2022))


@toolbox.tool(asks="find the best-selling wine in {location} on {date}")
def get_top_selling_wine(location: Region, date: Day) -> tuple[Wine, float]:
    """Retrieve the top-selling wine in a sales region on a date.

    Args:
        location: Sales region, e.g. "California" or "Bordeaux".
        date: Sales date in YYYY-MM-DD.

    Returns:
        wine_name: the best-selling wine.
        sales_value: the best-selling wine's sales that day (US dollars).
    """
    w = world(BeverageWorld)
    require(location in REGIONS, f"unknown sales region {location!r}; known regions: {', '.join(sorted(REGIONS))}")
    day = w.day(date)
    names = sorted(w.wines)
    wine = names[w.figure("top-wine", location, day, low=0, high=len(names) - 1)]
    return wine, float(w.figure("wine-sales", location, day, low=400, high=4000))


@toolbox.tool(asks="find the best-selling beer in {location} on {date}")
def get_best_selling_beer(location: Region, date: Day) -> tuple[Beer, int]:
    """Retrieve the best-selling beer in a sales region on a date.

    Args:
        location: Sales region, e.g. "Oregon".
        date: Sales date in YYYY-MM-DD.

    Returns:
        beer_name: the best-selling beer.
        units_sold: the units of the best-selling beer sold that day.
    """
    w = world(BeverageWorld)
    require(location in REGIONS, f"unknown sales region {location!r}")
    day = w.day(date)
    names = sorted(w.beers)
    beer = names[w.figure("top-beer", location, day, low=0, high=len(names) - 1)]
    return beer, w.figure("beer-units", location, day, low=150, high=9000)


@toolbox.tool(asks="find the country {product} comes from")
def get_product_origin(product: Annotated[str, Kind("wine_name")]) -> Country:
    """Look up the country of origin of a wine.

    Args:
        product: Exact wine name, e.g. "Ramey Chardonnay".

    Returns:
        origin: the wine's country of origin.
    """
    w = world(BeverageWorld)
    _wine(product)
    return _product_country(w, product)


@toolbox.tool(asks="find where {beer} is brewed")
def get_beer_origin(beer: Beer) -> Country:
    """Look up the country where a beer is brewed.

    Args:
        beer: Exact beer name, e.g. "Guinness Stout".

    Returns:
        origin: the beer's country of origin.
    """
    w = world(BeverageWorld)
    require(beer in w.beers, f"unknown beer {beer!r}")
    return w.beers[beer]["country"]


@toolbox.tool(asks="give the quantity of {product} exported from {location} on {date}")
def get_export_quantity(location: Country, date: Day, product: Wine) -> int:
    """Get the number of units of a wine exported from a country on a date (re-exports included).

    Args:
        location: Exporting country, e.g. "France".
        date: Export date in YYYY-MM-DD.
        product: Exact wine name.

    Returns:
        quantity: the units exported that day.
    """
    w = world(BeverageWorld)
    day = w.day(date)
    origin = _product_country(w, product)
    if location == origin:
        return w.figure("export", location, day, product, low=500, high=20000)
    return w.figure("re-export", location, day, product, low=0, high=400)  # re-exports are small


@toolbox.tool(asks="give the quantity of {product} imported into {country} on {date}")
def get_import_quantity(country: Country, date: Day, product: Wine) -> int:
    """Get the number of units of a wine imported into a country on a date.

    Args:
        country: Importing country, e.g. "Germany".
        date: Import date in YYYY-MM-DD.
        product: Exact wine name.

    Returns:
        quantity: the units imported that day (0 for the wine's own country).
    """
    w = world(BeverageWorld)
    day = w.day(date)
    if _product_country(w, product) == country:
        return 0
    return w.figure("import", country, day, product, low=0, high=6000)


@toolbox.tool(asks="get the critic rating of {wine_name}")
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


@toolbox.tool(asks="search the wine catalog for {query}", tags=("search",))
def search_wine_catalog(query: Annotated[str, Kind("wine_search_terms")], max_results: int = 5) -> list[Wine]:
    """Search the wine catalog by words in the wine's name, producer or grape variety.

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
        text = f"{name} {row['variety']} {PRODUCERS[row['producer']]} {REGIONS[PRODUCERS[row['producer']]]}".lower()
        if all(word in text for word in words):
            hits.append(name)
    return hits[:max_results]


@toolbox.tool(asks="find the producer of {product}")
def get_product_manufacturer(product: Wine) -> Producer:
    """Find the producer (winery) that makes a wine.

    Args:
        product: Exact wine name.

    Returns:
        producer: the winery that makes the wine.
    """
    return _wine(product)["producer"]


@toolbox.tool(asks="find the home region of the winery {producer}")
def get_producer_region(producer: Producer) -> Region:
    """Find the sales region where a winery is based.

    Args:
        producer: Winery name, e.g. "Antinori".

    Returns:
        region: the winery's home region.
    """
    require(producer in PRODUCERS, f"unknown producer {producer!r}")
    return PRODUCERS[producer]


@toolbox.tool(asks="get the price of {wine_name} in {currency}")
def get_wine_price(wine_name: Wine, currency: Currency = "USD") -> float:
    """Get the retail price of one bottle of a wine.

    Args:
        wine_name: Exact wine name.
        currency: ISO 4217 currency code of the price, e.g. "EUR".

    Returns:
        price: the bottle price (in the requested currency, rounded to cents).
    """
    row = _wine(wine_name)
    require(currency in USD_RATES, f"unsupported currency {currency!r}; use one of {', '.join(sorted(USD_RATES))}")
    return round(row["price_usd"] * USD_RATES[currency], 2)


@toolbox.tool(asks="find the grape variety of {wine_name}")
def get_grape_variety(wine_name: Wine) -> Variety:
    """Find the grape variety a wine is made from.

    Args:
        wine_name: Exact wine name.

    Returns:
        variety: the wine's grape variety.
    """
    return _wine(wine_name)["variety"]


@toolbox.tool(asks="list the {variety} wines made in {country}")
def find_wines_by_variety(variety: Variety, country: Country) -> list[Wine]:
    """List the wines of a grape variety made in a country.

    Args:
        variety: Grape variety, e.g. "Merlot".
        country: Producing country, e.g. "Italy".

    Returns:
        wine_names: the matching wines (alphabetical; may be empty).
    """
    w = world(BeverageWorld)
    require(variety in VARIETIES, f"unknown grape variety {variety!r}")
    return sorted(n for n, r in w.wines.items() if r["variety"] == variety and REGIONS[PRODUCERS[r["producer"]]] == country)


@toolbox.tool(asks="suggest a dish that pairs with {variety}")
def get_food_pairing(variety: Variety) -> Dish:
    """Suggest a classic dish to pair with a grape variety.

    Args:
        variety: Grape variety, e.g. "Riesling".

    Returns:
        dish: the suggested dish.
    """
    require(variety in DISHES, f"no pairing known for {variety!r}")
    return DISHES[variety]


@toolbox.tool(asks="get the calories in one serving of {dish}")
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


@toolbox.tool(asks="find the vintage year of {wine_name}")
def get_vintage(wine_name: Wine) -> Year:
    """Find the vintage (harvest year) of a wine.

    Args:
        wine_name: Exact wine name.

    Returns:
        vintage: the wine's vintage year.
    """
    return _wine(wine_name)["vintage"]


@toolbox.tool(asks="give the grape harvest yield of {region} in {year}")
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


@toolbox.tool(asks="give the total beverage sales in {location} on {date}")
def get_total_beverage_sales(location: Region, date: Day) -> float:
    """Get the total wine and beer sales of a region on a date.

    Args:
        location: Sales region.
        date: Sales date in YYYY-MM-DD.

    Returns:
        total_usd: the total beverage sales (US dollars).
    """
    w = world(BeverageWorld)
    require(location in REGIONS, f"unknown sales region {location!r}")
    day = w.day(date)
    return float(w.figure("total-sales", location, day, low=20000, high=250000))


@toolbox.tool(asks="work out which catalog wine is meant by \"{mention}\"", tags=("canonicalise",))
def resolve_wine_name(mention: Annotated[str, Kind("wine_mention")]) -> Wine:
    """Resolve the way someone names a wine to the exact catalog wine name.

    Args:
        mention: Free-form wine mention naming a producer and a grape, e.g. "the Ramey chardonnay" or "pinot noir by eyrie".

    Returns:
        wine_name: the exact catalog wine name.
    """
    w = world(BeverageWorld)
    text = " ".join(mention.lower().replace("the ", " ").split())
    hits = [name for name, row in sorted(w.wines.items())
            if row["producer"].lower() in text and row["variety"].lower() in text]
    require(len(hits) == 1, f"no single catalog wine matches {mention!r}; name both the producer and the grape")
    return hits[0]


@toolbox.tool(asks="add {bottles} bottles of {wine_name} to my cellar", tags=("state_change",))
def add_wine_to_cellar(wine_name: Wine, bottles: Annotated[int, Kind("bottle_count")]) -> int:
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


@toolbox.tool(asks="give the value of my wine cellar in {currency}")
def get_cellar_value(currency: Currency) -> float:
    """Get the retail value of every bottle in the user's cellar.

    Args:
        currency: ISO 4217 currency code, e.g. "GBP".

    Returns:
        value: the cellar's total value (in the requested currency, rounded to cents).
    """
    w = world(BeverageWorld)
    require(currency in USD_RATES, f"unsupported currency {currency!r}; use one of {', '.join(sorted(USD_RATES))}")
    total = sum(w.wines[name]["price_usd"] * count for name, count in w.state.get("cellar", {}).items())
    return round(total * USD_RATES[currency], 2)
