"""Finance and Stocks: listed companies, quotes and price history, company facts, currency
rates and conversion, and a brokerage portfolio that trades shares."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import iso_day
from factory.toolbox.gazetteer import (
    CITY_BY_NAME,
    COUNTRIES,
    COUNTRY_BY_NAME,
    CURRENCIES,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    country_named,
    country_phrase,
    phone_number,
)
from factory.toolbox.sense import around, distinct, sensible, within
from factory.toolbox.user import USER

toolbox = Toolbox()

# A ticker names a stock: "that stock" reads better than "that ticker symbol" in a request.
Ticker = Annotated[str, Kind("stock")]
CompanyName = Annotated[str, Kind("company_name")]
Day = Annotated[str, Kind("date")]
# A currency code is either the unit of an amount (role "amount": a price's currency, which pairs
# with the price) or a currency named for its own sake, to convert into or to quote a rate in
# (role "currency"): the currency a listing is priced in is no target a person converts cash
# into, and a hotel's or a scholarship's currency without its amount is nothing to convert.
Currency = Annotated[str, Kind("currency_code", role="amount")]
NamedCurrency = Annotated[str, Kind("currency_code", role="currency")]
ReportingCurrency = Annotated[str, Kind("currency_code", role="reporting")]  # a display choice, typed by the user
# A rate is looked up against a currency people measure by (the dollar, the euro), typed by them;
# a rate between two currencies found by other look-ups is no request.
ReferenceCurrency = Annotated[str, Kind("currency_code", role="reference")]
CurrencyName = Annotated[str, Kind("currency_name")]
Country = Annotated[str, Kind("country")]
# A head office is where a company sits, not a place anyone asks the weather or the UV index of.
City = Annotated[str, Kind("city", role="head_office")]
Address = Annotated[str, Kind("address", role="head_office")]
CompanyPhone = Annotated[str, Kind("phone_number", role="company")]
MyPhone = Annotated[str, Kind("phone_number", role="account_holder")]
Ceo = Annotated[str, Kind("person_name", role="ceo")]
Money = Annotated[float, Kind("money_amount")]  # always next to its currency (a group, or a currency output)
Shares = Annotated[int, Kind("share_count")]
SearchTerms = Annotated[str, Kind("market_search_terms")]

TODAY = NOW.date()
HISTORY_DAYS = 120  # price and rate history covers the 120 calendar days up to today
FIRST_DAY = TODAY - timedelta(days=HISTORY_DAYS - 1)
HOLIDAYS = {date(2025, 4, 18), date(2025, 4, 21)}  # Good Friday and Easter Monday: every exchange here is shut
START_CASH_USD = 100_000.0

# ticker → (company name, sector, headquarters city, legal suffix people sometimes add)
COMPANIES = {
    "HLCN": ("Halcyon Semiconductor", "Technology", "San Francisco", "Inc."),
    "BWLG": ("Bluewater Logistics", "Industrials", "Seattle", "Corp."),
    "GPKB": ("Granite Peak Bank", "Financials", "New York", "Inc."),
    "MRHS": ("Meridian Health Systems", "Healthcare", "Boston", "Inc."),
    "LSEN": ("Lone Star Energy", "Energy", "Austin", "Corp."),
    "LKSF": ("Lakeshore Foods", "Consumer Staples", "Chicago", "Inc."),
    "PSTW": ("Pacific Streamworks", "Communication Services", "Los Angeles", "Inc."),
    "SMTR": ("Summit Towers REIT", "Real Estate", "Chicago", "Inc."),
    "MRMN": ("Maple Ridge Mining", "Materials", "Toronto", "Ltd."),
    "NLTC": ("Northern Lights Telecom", "Communication Services", "Vancouver", "Inc."),
    "SRCM": ("Sierra Cement", "Materials", "Mexico City", "S.A.B."),
    "AVEN": ("Aurora Verde Energia", "Energy", "Sao Paulo", "S.A."),
    "PMPA": ("Pampa Agro", "Consumer Staples", "Buenos Aires", "S.A."),
    "TMIN": ("Thames Mutual Insurance", "Financials", "London", "plc"),
    "CLDR": ("Caledonia Renewables", "Utilities", "Edinburgh", "plc"),
    "LUMC": ("Lumiere Cosmetics", "Consumer Discretionary", "Paris", "S.A."),
    "RHPH": ("Rhone Pharma", "Healthcare", "Lyon", "S.A."),
    "SPAU": ("Spree Automotive", "Consumer Discretionary", "Berlin", "AG"),
    "ISAR": ("Isar Industrietechnik", "Industrials", "Munich", "AG"),
    "IBSL": ("Iberia Solar", "Utilities", "Madrid", "S.A."),
    "MIMO": ("Milano Moda Group", "Consumer Discretionary", "Milan", "S.p.A."),
    "DHCH": ("Dutch Harbour Chemicals", "Materials", "Amsterdam", "N.V."),
    "ALPI": ("Alpine Precision Instruments", "Technology", "Zurich", "AG"),
    "NRDV": ("Nordvik Software", "Technology", "Stockholm", "AB"),
    "DCIN": ("Deccan Infotech", "Technology", "Bangalore", "Ltd."),
    "GWFN": ("Gateway Finance", "Financials", "Mumbai", "Ltd."),
    "STDB": ("Straits Digital Bank", "Financials", "Singapore", "Ltd."),
    "HPEL": ("Huangpu Electric", "Industrials", "Shanghai", "Co."),
    "SKRB": ("Sakura Robotics", "Industrials", "Tokyo", "K.K."),
    "KNRL": ("Kansai Rail Holdings", "Industrials", "Osaka", "K.K."),
    "HGDP": ("Hangang Display", "Technology", "Seoul", "Co."),
    "SCRS": ("Southern Cross Resources", "Materials", "Sydney", "Ltd."),
    "YRHL": ("Yarra Health", "Healthcare", "Melbourne", "Ltd."),
    "TMGD": ("Table Mountain Gold", "Materials", "Cape Town", "Ltd."),
    "DFPR": ("Desert Falcon Properties", "Real Estate", "Dubai", "PJSC"),
    "SVMB": ("Savannah Mobile", "Communication Services", "Nairobi", "plc"),
}
STREETS = ["Market Street", "Harbour Road", "King Street", "Station Avenue", "Park Lane", "Commerce Way",
           "Riverside Drive", "Exchange Place", "Bridge Street", "Victoria Road"]
# Other ways people name a currency, beyond the gazetteer's own names.
CURRENCY_ALIASES = {
    "us dollars": "USD", "american dollar": "USD", "greenback": "USD", "euros": "EUR", "yen": "JPY",
    "pound sterling": "GBP", "sterling": "GBP", "british pounds": "GBP", "loonie": "CAD",
    "aussie dollar": "AUD", "kiwi dollar": "NZD", "swiss francs": "CHF", "renminbi": "CNY", "yuan": "CNY",
    "rupee": "INR", "indian rupees": "INR", "won": "KRW", "mexican pesos": "MXN", "reais": "BRL",
    "rand": "ZAR", "dirham": "AED", "swedish kronor": "SEK", "kenyan shillings": "KES",
}
PHONE = re.compile(r"^\+\d[\d -]{6,18}\d$")


def _is_trading_day(day: date) -> bool:
    return day.weekday() < 5 and day not in HOLIDAYS


# Closes exist for every trading day from FIRST_DAY up to yesterday; today's session is still open.
TRADING_DAYS = [d for d in (FIRST_DAY + timedelta(days=i) for i in range(HISTORY_DAYS - 1)) if _is_trading_day(d)]


@dataclass
class MarketWorld(World):
    companies: dict[str, dict] = field(default_factory=dict)  # ticker → company facts
    closes: dict[str, dict[str, float]] = field(default_factory=dict)  # ticker → ISO date → close
    quotes: dict[str, float] = field(default_factory=dict)  # ticker → latest price today
    fx: dict[str, dict[str, float]] = field(default_factory=dict)  # currency → ISO date → units per USD

    def company(self, symbol: str) -> dict:
        key = symbol.strip().upper()
        require(key in self.companies,
                f"unknown ticker symbol {symbol!r}; look the company up by name to get its ticker")
        return self.companies[key]

    def per_usd(self, code: str, day: date = TODAY) -> float:
        require(code in CURRENCY_BY_CODE,
                f"unknown currency code {code!r}; use an ISO 4217 code such as USD, EUR or JPY")
        return self.fx[code][day.isoformat()]

    def rate(self, from_code: str, to_code: str, day: date = TODAY) -> float:
        """The units of `to_code` one unit of `from_code` buys: the quoted rate (6 decimals) every
        conversion of this world applies, so that a value a tool gives in a currency and the same
        value converted by `convert_currency_amount` agree (a market cap asked in US dollars, and
        the one in reais converted, differed by 700,000 dollars: reading 86 #26)."""
        return round(self.per_usd(to_code, day) / self.per_usd(from_code, day), 6)


def _round_price(value: float, currency: str) -> float:
    return round(value, 0 if CURRENCY_BY_CODE[currency].per_usd > 100 else 2)


@toolbox.world
def build_world(rng: random.Random) -> MarketWorld:
    n = len(FIRST_NAMES)
    people = [f"{FIRST_NAMES[i]} {LAST_NAMES[(i + shift) % n]}" for shift in (0, 1) for i in range(n)]
    ceos = rng.sample(people, len(COMPANIES))
    fx: dict[str, dict[str, float]] = {}
    for cur in CURRENCIES:
        rate = cur.per_usd  # today's rate is the gazetteer's; earlier days drift away from it
        series = {}
        for back in range(HISTORY_DAYS):
            day = TODAY - timedelta(days=back)
            series[day.isoformat()] = rate if cur.code == "USD" else round(rate, 6)
            if cur.code != "USD":
                rate *= 1 + rng.gauss(0, 0.003)
        fx[cur.code] = series
    companies, closes, quotes = {}, {}, {}
    for (ticker, (name, sector, city, suffix)), ceo in zip(sorted(COMPANIES.items()), ceos, strict=True):
        country = CITY_BY_NAME[city].country
        currency = COUNTRY_BY_NAME[country].currency
        price = rng.uniform(8, 650) * CURRENCY_BY_CODE[currency].per_usd
        series = {}
        for day in TRADING_DAYS:
            price *= 1 + rng.gauss(0.0004, 0.018)
            series[day.isoformat()] = _round_price(price, currency)
        closes[ticker] = series
        quotes[ticker] = _round_price(price * (1 + rng.gauss(0, 0.008)), currency)
        pays = rng.random() < 0.75
        companies[ticker] = {
            "ticker": ticker, "name": name, "suffix": suffix, "sector": sector, "city": city,
            "country": country, "currency": currency, "ceo": ceo,
            "shares_outstanding": rng.randint(40, 4000) * 1_000_000,
            "dividend": _round_price(price * rng.uniform(0.005, 0.06), currency) if pays else 0.0,
            "address": f"{rng.randint(1, 480)} {rng.choice(STREETS)}, {city}",
            "phone": phone_number(rng, city),
        }
    holdings = {ticker: rng.randint(25, 300) for ticker in sorted(COMPANIES)}
    state = {"cash_usd": START_CASH_USD, "holdings": holdings, "account_verified": True,
             "two_factor_phone": USER.phone}  # the account holder's own phone (factory.toolbox.user)
    return MarketWorld(state=state, companies=companies, closes=closes, quotes=quotes, fx=fx)


def _close_on(w: MarketWorld, ticker: str, text: str) -> tuple[float, date]:
    """The close on a date, or on the nearest earlier trading day when markets were shut."""
    day = iso_day(text)
    require(day <= TODAY, f"{text} is in the future; price history ends today ({TODAY})")
    require(day != TODAY, f"the market has not closed yet today ({TODAY}); use the live quote for today's price")
    require(day >= FIRST_DAY, f"no price history for {text}: history covers {FIRST_DAY} to {TODAY - timedelta(days=1)}")
    while not _is_trading_day(day):
        day -= timedelta(days=1)
    require(day >= FIRST_DAY,
            f"markets were shut on {text} and the previous trading day is before the history starts ({FIRST_DAY})")
    return w.closes[ticker][day.isoformat()], day


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9& ]", " ", text.lower()).split())


# An amount another seed gives with its currency (a listing's asking price, a salary) can be
# converted; the pair always travels together (a group), so both kinds are bridged. Another
# seed's country is not: which currency a country uses is rarely what a person wants next.
toolbox.bridge("currency_code", "money_amount")
toolbox.written_as("country", country_phrase)


# --- value generators -------------------------------------------------------------------

@toolbox.values_for("stock")
def _tickers(w: MarketWorld) -> list[str]:
    return sorted(w.companies)


@toolbox.values_for("company_name")
def _company_names(w: MarketWorld) -> list[str]:
    """How people name a company: its name, or with a legal suffix."""
    forms = []
    for row in sorted(w.companies.values(), key=lambda r: r["ticker"]):
        forms += [row["name"], f"{row['name']} {row['suffix']}"]
    return forms


@toolbox.values_for("date")
def _dates(w: MarketWorld) -> list[str]:
    """Past trading days: people ask about days the markets were open."""
    return [d.isoformat() for d in TRADING_DAYS]


# The currencies people convert between most; every other one still comes up.
MAJOR_CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD")


@toolbox.values_for("currency_code")
def _currency_codes(w: MarketWorld) -> list[str]:
    return [*MAJOR_CURRENCIES, *MAJOR_CURRENCIES, *(c.code for c in CURRENCIES)]


@toolbox.values_for("currency_code/currency")
def _named_currencies(w: MarketWorld) -> list[str]:
    return _currency_codes(w)


@toolbox.values_for("currency_code/reference")
def _reference_currencies(w: MarketWorld) -> list[str]:
    return ["USD", "EUR", "USD", "EUR", "GBP", "JPY", "CHF"]


@toolbox.values_for("currency_code/reporting")
def _reporting_currencies(w: MarketWorld) -> list[str]:
    return ["USD", "EUR", "GBP", "JPY", "CHF"]


@toolbox.values_for("currency_name")
def _currency_names(w: MarketWorld) -> list[str]:
    return [c.name for c in CURRENCIES] + sorted(CURRENCY_ALIASES)


@toolbox.values_for("country")
def _countries(w: MarketWorld) -> list[str]:
    return [c.name for c in COUNTRIES]


def _nice(value: float) -> float:
    """A round figure a person would name: two significant digits."""
    digits = len(str(int(value))) - 2
    return float(round(value, -digits)) if digits > 0 else float(round(value))


@toolbox.values_for("money_amount", "currency_code")
def _sums(w: MarketWorld) -> list[tuple[float, str]]:
    """Amounts with their currency, sized as people hold them in that currency (5000 JPY, not 5000 KRW for a coffee)."""
    codes = [*MAJOR_CURRENCIES, *MAJOR_CURRENCIES, *(c.code for c in CURRENCIES)]
    return [(_nice(usd * CURRENCY_BY_CODE[code].per_usd), code) for code in codes for usd in (50, 200, 500, 1500, 10000)]


@toolbox.values_for("money_amount")
def _amounts(w: MarketWorld) -> list[float]:
    return sorted({amount for amount, _ in _sums(w)})


@toolbox.values_for("share_count")
def _share_counts(w: MarketWorld) -> list[int]:
    return [2, 5, 10, 15, 20]


@toolbox.values_for("phone_number/account_holder")
def _phones(w: MarketWorld) -> list[str]:
    """The account holder's mobile numbers, other than the one two-factor sign-in already uses."""
    return ["+44-20-555-0188", "+49-30-555-0142", "+81-3-555-0107", "+1-212-555-0199"]


@toolbox.values_for("market_search_terms")
def _search_terms(w: MarketWorld) -> list[str]:
    terms = set()
    for row in w.companies.values():
        terms.add(row["sector"].lower())
        terms.add(f"{row['sector'].lower()} {row['country'].lower()}")
        terms.add(row["city"].lower())
    return sorted(terms)


# --- companies and prices ---------------------------------------------------------------

@toolbox.tool(tags=("canonicalise",))
def lookup_ticker_symbol(company: CompanyName) -> Ticker:
    """Resolve a company name, as people write it, to its stock ticker symbol.

    Args:
        company: Company name in any case, with or without a legal suffix, e.g. "Halcyon Semiconductor Inc." or "sakura robotics".

    Returns:
        ticker: the company's ticker symbol.
    """
    w = world(MarketWorld)
    text = _norm(company)
    require(bool(text), "company must name a company")
    exact = [t for t, row in sorted(w.companies.items()) if text in (_norm(row["name"]), _norm(f"{row['name']} {row['suffix']}"))]
    if exact:
        return exact[0]
    partial = [t for t, row in sorted(w.companies.items()) if text in _norm(row["name"]) or _norm(row["name"]) in text]
    require(len(partial) == 1, f"no single listed company matches {company!r}; give more of the company's name"
            if partial else f"no listed company matches {company!r}; search the market by sector or country")
    return partial[0]


@toolbox.tool(tags=("search",))
def search_markets(query: SearchTerms, max_results: int = 10) -> list[Ticker]:
    """Search listed companies by words in their name, ticker, sector, country, city or CEO.

    Args:
        query: Words to look for, e.g. "technology japan" or "energy"; every word must match.
        max_results: Maximum number of ticker symbols to return (1-30).

    Returns:
        tickers: the ticker symbols of the matching companies (alphabetical).
    """
    w = world(MarketWorld)
    require(1 <= max_results <= 30, "max_results must be between 1 and 30")
    words = _norm(query).split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for ticker, row in sorted(w.companies.items()):
        text = _norm(" ".join((row["name"], ticker, row["sector"], row["country"], row["city"], row["ceo"])))
        if all(word in text for word in words):
            hits.append(ticker)
    return hits[:max_results]


@toolbox.tool
def get_stock_quote(symbol: Ticker) -> tuple[Money, Currency]:
    """Get the latest traded price of a stock today, in the currency it is listed in.

    Args:
        symbol: Ticker symbol, e.g. "HLCN".

    Returns:
        price: the latest share price (in the listing currency).
        currency_code: the currency the stock trades in (ISO 4217).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    return w.quotes[row["ticker"]], row["currency"]


@toolbox.tool(sense=(around("date", before=HISTORY_DAYS, after=0),))
def get_historical_close(symbol: Ticker, date: Day) -> tuple[Money, Currency, str]:
    """Get a stock's closing price on a past date; on a weekend or market holiday, the close of the nearest previous trading day.

    Args:
        symbol: Ticker symbol, e.g. "SKRB".
        date: Past date in YYYY-MM-DD within the last 120 days, before today.

    Returns:
        close: the closing share price (in the listing currency).
        currency_code: the currency the stock trades in (ISO 4217).
        trading_date: the trading day the close is from (YYYY-MM-DD; earlier than the date asked for when markets were shut).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    close, day = _close_on(w, row["ticker"], date)
    return close, row["currency"], day.isoformat()


@toolbox.tool(
    sense=(distinct("start_date", "end_date"), around("start_date", before=HISTORY_DAYS, after=0),
           around("end_date", before=HISTORY_DAYS, after=0),
           sensible("start before end", ("start_date", "end_date"), lambda a: str(a["start_date"]) < str(a["end_date"]))),
)
def get_price_change_percent(symbol: Ticker, start_date: Day, end_date: Day) -> float:
    """Compute the percentage change of a stock's closing price between two past dates (nearest previous trading day for each).

    Args:
        symbol: Ticker symbol.
        start_date: Date whose close is the baseline, YYYY-MM-DD.
        end_date: Date whose close is compared with the baseline, YYYY-MM-DD.

    Returns:
        change_percent: the change from the start close to the end close (percent, rounded to 2 decimals; negative for a fall).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    start, _ = _close_on(w, row["ticker"], start_date)
    end, _ = _close_on(w, row["ticker"], end_date)
    return round((end - start) / start * 100, 2)


@toolbox.tool
def get_company_profile(symbol: Ticker) -> tuple[str, str, str, Ceo]:
    """Get the name, sector, home country and chief executive of a listed company.

    Args:
        symbol: Ticker symbol.

    Returns:
        company_name: the company's full name.
        sector: the company's industry sector.
        country: the country where the company is listed and headquartered.
        ceo_name: the company's chief executive officer.
    """
    row = world(MarketWorld).company(symbol)
    return row["name"], row["sector"], row["country"], row["ceo"]


@toolbox.tool
def get_company_headquarters(symbol: Ticker) -> tuple[Address, City, CompanyPhone]:
    """Get the head-office street address, city and switchboard phone number of a listed company.

    Args:
        symbol: Ticker symbol.

    Returns:
        address: the head office's street address.
        city: the city of the company's head office.
        phone_number: the head office's switchboard number.
    """
    row = world(MarketWorld).company(symbol)
    return row["address"], row["city"], row["phone"]


@toolbox.tool
def find_sector_peers(symbol: Ticker) -> list[Ticker]:
    """List the other listed companies in the same sector as a company, largest market value first.

    Args:
        symbol: Ticker symbol.

    Returns:
        peer_tickers: the ticker symbols of the company's sector peers (largest first).
    """
    w = world(MarketWorld)
    row = w.company(symbol)

    def value_usd(r: dict) -> float:
        return w.quotes[r["ticker"]] * r["shares_outstanding"] * w.rate(r["currency"], "USD")

    peers = [r for r in w.companies.values() if r["sector"] == row["sector"] and r["ticker"] != row["ticker"]]
    return [r["ticker"] for r in sorted(peers, key=lambda r: (-value_usd(r), r["ticker"]))]


@toolbox.tool
def get_dividend_yield(symbol: Ticker) -> tuple[float, Money, Currency]:
    """Get a stock's trailing dividend yield at today's price and its annual dividend per share.

    Args:
        symbol: Ticker symbol.

    Returns:
        dividend_yield: the dividend yield (percent of the share price, rounded to 2 decimals; 0 if it pays none).
        annual_dividend: the dividends paid per share over the last year (in the listing currency).
        currency_code: the currency the dividend is paid in (ISO 4217).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    return round(row["dividend"] / w.quotes[row["ticker"]] * 100, 2), row["dividend"], row["currency"]


@toolbox.tool
def get_market_cap(symbol: Ticker, currency: ReportingCurrency = "USD") -> float:
    """Get a company's market capitalisation (shares outstanding times today's price) in a chosen currency.

    Args:
        symbol: Ticker symbol.
        currency: ISO 4217 code of the currency to express the value in, e.g. "EUR"; US dollars when not given.

    Returns:
        market_cap: the company's market value (whole units of the requested currency).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    local = w.quotes[row["ticker"]] * row["shares_outstanding"]
    return float(round(local * w.rate(row["currency"], currency)))


# --- currencies ------------------------------------------------------------------------

@toolbox.tool(
    tags=("canonicalise", "self_evident"),  # "Argentine peso" is ARS to any careful agent: calling it is a detour
)
def currency_name_to_code(currency_name: CurrencyName) -> NamedCurrency:
    """Turn the name of a currency, as people say it, into its ISO 4217 code.

    Args:
        currency_name: Currency name or nickname in any case, e.g. "euro", "Japanese yen" or "sterling".

    Returns:
        currency_code: the currency's ISO 4217 code.
    """
    text = " ".join(currency_name.lower().split())
    if text.upper() in CURRENCY_BY_CODE:
        return text.upper()
    for cur in CURRENCIES:
        if text in (cur.name.lower(), cur.name.lower() + "s"):
            return cur.code
    if text in CURRENCY_ALIASES:
        return CURRENCY_ALIASES[text]
    require(text not in ("dollar", "dollars", "peso", "pesos", "pound", "pounds", "franc", "francs"),
            f"{currency_name!r} is ambiguous; say which country's currency, e.g. \"Canadian dollar\"")
    raise ToolError(f"unknown currency {currency_name!r}; name it like \"euro\" or \"Swiss franc\"")


@toolbox.tool(sense=(distinct("from_currency", "to_currency"),))
def convert_currency_amount(amount: Money, from_currency: Currency, to_currency: NamedCurrency) -> tuple[float, float]:
    """Convert an amount of money between two currencies at today's market rate.

    Args:
        amount: Amount to convert, 0 or more.
        from_currency: ISO 4217 code of the amount's currency, e.g. "GBP".
        to_currency: ISO 4217 code of the target currency, e.g. "JPY".

    Returns:
        converted_amount: the amount in the target currency (rounded to 2 decimals).
        rate: the units of the target currency one unit of the source currency buys today.
    """
    w = world(MarketWorld)
    require(amount >= 0, "amount must not be negative")
    rate = w.rate(from_currency, to_currency)  # the quoted rate is the one applied
    return round(amount * rate, 2), rate


@toolbox.tool(sense=(distinct("base_currency", "quote_currency"), around("date", before=HISTORY_DAYS, after=0)))
def get_fx_rate_on_date(base_currency: NamedCurrency, quote_currency: ReferenceCurrency, date: Day) -> float:
    """Get the daily reference exchange rate between two currencies on a date (published every calendar day).

    Args:
        base_currency: ISO 4217 code of the currency being priced, e.g. "EUR".
        quote_currency: ISO 4217 code of the currency the price is given in, e.g. "USD".
        date: Date in YYYY-MM-DD within the last 120 days, today included.

    Returns:
        rate: the units of the quote currency one unit of the base currency bought that day.
    """
    w = world(MarketWorld)
    day = iso_day(date)
    require(FIRST_DAY <= day <= TODAY, f"no reference rate for {date}: rates cover {FIRST_DAY} to {TODAY}")
    return w.rate(base_currency, quote_currency, day)


@toolbox.tool(
    tags=("self_evident",),  # Kenya pays in KES, as any careful agent knows: a lookup first is a detour
)
def get_country_currency_code(country: Country) -> NamedCurrency:
    """Find the official currency of a country.

    Args:
        country: Country name in English, e.g. "Japan" or "United Kingdom".

    Returns:
        currency_code: the country's currency (ISO 4217 code).
    """
    country = country_named(country) or country
    require(country in COUNTRY_BY_NAME, f"unknown country {country!r}; use the English name, e.g. \"Germany\" or \"USA\"")
    return COUNTRY_BY_NAME[country].currency


# --- brokerage account --------------------------------------------------------------------

def _position_value_usd(w: MarketWorld, ticker: str, shares: int) -> float:
    row = w.companies[ticker]
    return w.quotes[ticker] * shares * w.rate(row["currency"], "USD")


@toolbox.tool(sense=(within("shares", 1, 50),), requires=("account_verified",), tags=("state_change",))
def buy_shares(symbol: Ticker, shares: Shares) -> tuple[float, int]:
    """Buy shares of a stock at today's price, paid from the account's US-dollar cash balance.

    Args:
        symbol: Ticker symbol of the stock to buy.
        shares: Number of whole shares to buy (1-1000).

    Returns:
        cash_balance: the cash left in the account after the purchase (US dollars).
        shares_held: the shares of the stock now held.
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    require(1 <= shares <= 1000, "shares must be between 1 and 1000")
    require(w.state.get("account_verified") is True,
            "the trading account is not verified: verify it with an identity document before trading")
    cost = round(_position_value_usd(w, row["ticker"], shares), 2)
    cash = w.state.get("cash_usd", 0.0)
    require(cost <= cash, f"insufficient cash: {shares} shares of {row['ticker']} cost {cost:.2f} USD "
                          f"but the account holds {cash:.2f} USD; buy fewer shares or sell something first")
    holdings = w.state.setdefault("holdings", {})
    holdings[row["ticker"]] = holdings.get(row["ticker"], 0) + shares
    w.state["cash_usd"] = round(cash - cost, 2)
    return w.state["cash_usd"], holdings[row["ticker"]]


@toolbox.tool(sense=(within("shares", 1, 50),), requires=("account_verified",), tags=("state_change", "ends"))
def sell_shares(symbol: Ticker, shares: Shares) -> tuple[float, int]:
    """Sell shares of a stock held in the account at today's price; the proceeds go to the US-dollar cash balance.

    Args:
        symbol: Ticker symbol of the stock to sell.
        shares: Number of whole shares to sell (at least 1, at most the shares held).

    Returns:
        cash_balance: the cash in the account after the sale (US dollars).
        shares_held: the shares of the stock still held.
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    require(shares >= 1, "shares must be at least 1")
    require(w.state.get("account_verified") is True,
            "the trading account is not verified: verify it with an identity document before trading")
    holdings = w.state.setdefault("holdings", {})
    held = holdings.get(row["ticker"], 0)
    require(shares <= held, f"cannot sell {shares} shares of {row['ticker']}: the account holds {held}")
    proceeds = round(_position_value_usd(w, row["ticker"], shares), 2)
    if held == shares:
        del holdings[row["ticker"]]
    else:
        holdings[row["ticker"]] = held - shares
    w.state["cash_usd"] = round(w.state.get("cash_usd", 0.0) + proceeds, 2)
    return w.state["cash_usd"], held - shares


@toolbox.tool
def get_portfolio_position(symbol: Ticker) -> tuple[int, float]:
    """Get how many shares of a stock the account holds and what they are worth today.

    Args:
        symbol: Ticker symbol.

    Returns:
        shares_held: the shares of the stock held (0 if none).
        position_value: the market value of those shares today (US dollars, rounded to 2 decimals).
    """
    w = world(MarketWorld)
    row = w.company(symbol)
    held = w.state.get("holdings", {}).get(row["ticker"], 0)
    return held, round(_position_value_usd(w, row["ticker"], held), 2)


@toolbox.tool
def get_portfolio_summary() -> tuple[float, float, Ticker]:
    """Summarise the brokerage account: cash, the value of all holdings, and the largest holding.

    Returns:
        cash_balance: the account's cash balance (US dollars).
        holdings_value: the market value of all shares held today (US dollars, rounded to 2 decimals).
        largest_holding: the ticker symbol of the most valuable position.
    """
    w = world(MarketWorld)
    holdings = w.state.get("holdings", {})
    require(bool(holdings), "the account holds no shares; buy some first")
    values = {t: _position_value_usd(w, t, n) for t, n in sorted(holdings.items())}
    largest = max(sorted(values), key=lambda t: values[t])
    return w.state.get("cash_usd", 0.0), round(sum(values.values()), 2), largest


@toolbox.tool(requires=("two_factor_enabled",), tags=("state_change",))
def verify_trading_account(document: Literal["passport", "driving-licence", "national-id"]) -> str:
    """Verify the brokerage account's identity with a document so it may trade; needs two-factor sign-in on.

    Args:
        document: Identity document to verify with: "passport", "driving-licence" or "national-id".

    Returns:
        verification_status: the account's verification status after the check.
    """
    w = world(MarketWorld)
    require(bool(w.state.get("two_factor_phone")),
            "identity verification needs two-factor sign-in: enable two-factor authentication with a phone number first")
    w.state["account_verified"] = True
    w.state["verified_with"] = document
    return "verified"


@toolbox.tool(tags=("state_change",))
def enable_two_factor_auth(phone_number: MyPhone) -> str:
    """Turn on two-factor sign-in for the brokerage account, sending codes by text message to a phone.

    Args:
        phone_number: Mobile number in international form, e.g. "+1-999-555-0100".

    Returns:
        confirmed_phone: the phone number the sign-in codes go to.
    """
    digits = sum(ch.isdigit() for ch in phone_number)
    require(bool(PHONE.match(phone_number)) and 8 <= digits <= 15,
            f"phone number {phone_number!r} is not in international form like +1-415-555-0134")
    world(MarketWorld).state["two_factor_phone"] = phone_number
    return phone_number


toolbox.condition(
    "account_verified",
    holds=lambda w: w.state.get("account_verified") is True,
    broken_state={"account_verified": False},
    fix=("verify_trading_account", {"document": "passport"}),
    consent="identity",  # an identity document is used only when the account holder says so
)
toolbox.condition(
    "two_factor_enabled",
    holds=lambda w: bool(w.state.get("two_factor_phone")),
    broken_state={"two_factor_phone": None},
    fix=("enable_two_factor_auth", {"phone_number": "+1-415-555-0134"}),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------

