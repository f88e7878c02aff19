"""Finance and Stocks: listed companies, quotes and price history, company facts, currency
rates and conversion, and a brokerage portfolio that trades shares."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.gazetteer import (
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
from factory.sense import around, distinct, sensible, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.user import USER

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
             "two_factor_phone": USER.phone}  # the account holder's own phone (factory.user)
    return MarketWorld(state=state, companies=companies, closes=closes, quotes=quotes, fx=fx)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


def _close_on(w: MarketWorld, ticker: str, text: str) -> tuple[float, date]:
    """The close on a date, or on the nearest earlier trading day when markets were shut."""
    day = _day(text)
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

@toolbox.tool(
    asks=("what's the ticker symbol of {company}?",
          "look up the stock ticker of {company}",
          "which ticker does {company} trade under?",
          "I want to follow {company} on the stock market. What's its ticker?",
          "find out which symbol {company} is listed under",
          "quick one: what's the ticker for {company}?",
          "I keep hearing about {company} but can't find it in my trading app. Which symbol should I search for?",
          "tell me the trading symbol that {company} uses on the exchange",
          "what do I type into a stock screener to pull up {company}?"),
    gives={"ticker": "{company}"},  # people name the company; finding its ticker is the agent's part
    tags=("canonicalise",),
)
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


@toolbox.tool(
    asks=('which listed companies match "{query}"?',
          'search the stock market for "{query}" and list the tickers',
          'find the listed companies that match "{query}" and give me their symbols',
          'I\'m screening stocks for "{query}". Which tickers come up?',
          'run a stock screen on "{query}" and show me the ticker symbols it turns up',
          'what tickers do I get if I search listed companies for "{query}"?',
          'I\'m hunting for investment ideas around "{query}". Which listed companies turn up, by ticker?',
          'are there any listed stocks matching "{query}"? List their tickers.',
          'pull up the ticker symbols of every listed company that fits "{query}"'),
    tags=("search",),
)
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


@toolbox.tool(
    asks=("what's {symbol} trading at right now, and in which currency?",
          "get the latest share price of {symbol} and its currency",
          "how much does one share of {symbol} cost today, and in what currency is it quoted?",
          "check the current stock price of {symbol}, with the currency it trades in",
          "pull up a live quote for {symbol}: price and currency.",
          "where is {symbol} trading today? Give me the price and the currency.",
          "I'm keeping an eye on {symbol}. What does a share go for at the moment, and in what currency?",
          "what's the going price of a share in {symbol}? Tell me the currency too.",
          "find out the current market price of {symbol} and the currency it's listed in"),
    gives={"price, currency_code": ("the latest share price of {symbol}",
                                    "the current price of one share of {symbol}",
                                    "today's stock price of {symbol}",
                                    "the price {symbol} is trading at right now",
                                    "the live quote for {symbol}",
                                    "the current market price of {symbol}",
                                    "the most recent traded price of {symbol}",
                                    "the present share price of {symbol}")},
)
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


@toolbox.tool(
    asks=("what was the closing price of {symbol} on {date}? Tell me the currency and the trading day of that close too.",
          "get the closing price of {symbol} on {date}, its currency and the trading date it comes from",
          "look up where {symbol} closed on {date}, in which currency, and on which trading day",
          "how much was a share of {symbol} worth at the close on {date}, in what currency, and which session is that from?",
          "I'm checking an old trade. Where did {symbol} finish on {date}? I need the closing price, its currency and the trading date.",
          "find the end-of-day price of {symbol} for {date} (the last trading day on or before it), with the currency and that day's date",
          "pull the historical close of {symbol} on {date}, plus the currency and the actual trading day used",
          "if markets were shut on {date}, use the session before: what did {symbol} close at, in what currency, and on what day?",
          "what was the close for {symbol} on {date}, and in what currency? Include the trading day it's from."),
    gives={"close, currency_code": ("the closing price of {symbol} on {date}",
                                    "the close of {symbol} on {date}",
                                    "the end-of-day share price of {symbol} on {date}",
                                    "the price of one share of {symbol} at the close on {date}",
                                    "the final price of {symbol} at the closing bell on {date}",
                                    "the official closing quote for {symbol} on {date}",
                                    "the price of {symbol} as the market closed on {date}",
                                    "the last price of {symbol} when the market shut on {date}",
                                    "the closing share price of {symbol} on {date}")},
    sense=(around("date", before=HISTORY_DAYS, after=0),),
)
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
    asks=("by what percentage did {symbol} move between {start_date} and {end_date}?",
          "work out how much the share price of {symbol} changed, in percent, from {start_date} to {end_date}",
          "how did {symbol} perform from {start_date} to {end_date}? Give me the percentage change.",
          "compute the percentage change in the closing price of {symbol} from {start_date} to {end_date}",
          "did {symbol} go up or down between {start_date} and {end_date}, and by how many percent?",
          "suppose I had bought {symbol} at the close on {start_date}. What percentage gain or loss would I have had by the close on {end_date}?",
          "what's the percent return on {symbol} from {start_date} to {end_date}?",
          "show me how far {symbol} rose or fell in percentage terms between {start_date} and {end_date}",
          "by what percentage did {symbol} change between {start_date} and {end_date}?",
          "I'm writing up a client's performance review. How much did {symbol} gain or lose in percent from {start_date} through {end_date}?",
          "measure the move in {symbol} from the close on {start_date} to the close on {end_date} as a percentage",
          "My quarterly report needs the percentage swing in {symbol} between {start_date} and {end_date}. What was it?",
          "has {symbol} been a winner or a loser from {start_date} to {end_date}? Put a percentage on it."),
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


@toolbox.tool(
    asks=("what's the full name of {symbol}, who runs it, what sector is it in and which country is it based in?",
          "get the company profile of {symbol}: full name, sector, home country and chief executive.",
          "tell me the full company name, sector, country and CEO behind {symbol}",
          "I'm researching {symbol}. What's the company called, what sector is it in, which country is it based in and who is the CEO?",
          "give me a quick profile of {symbol} with its name, industry, country and CEO",
          "look up the basics on {symbol}: company name, sector, home country and boss.",
          "For my notes on {symbol}, I'd like the company's full name, its sector, its country and who leads it.",
          "who is the CEO of {symbol}, and what are its full name, sector and home country?",
          "who leads {symbol}, what's the full company name, what sector, and which country?",
          "tell me the company name, sector, home country and chief executive of {symbol}",
          "what company is {symbol}? Give me its full name, sector, country and CEO.",
          "look up {symbol} and tell me its full name, its industry, its home country and its CEO",
          "find the sector, country, full name and chief executive of {symbol}"),
)
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


@toolbox.tool(
    asks=("in which city is the head office of {symbol}, what's the street address, and what's the switchboard number?",
          "find the head-office address, city and phone number of {symbol}",
          "give me the street address, city and phone number of the head office of the company behind {symbol}",
          "I need to send a letter to the head office of {symbol}. What's the address and the city, and what number can I call?",
          "how do I get in touch with the head office of the company behind {symbol}? Give me its address, city and main phone number.",
          "look up where the company behind {symbol} has its headquarters: street, city and switchboard.",
          "in which city does {symbol} have its head office, at what address, and what's the number to call there?",
          "get the head-office contact details of {symbol}, with address, city and phone",
          "where should I send post for {symbol}? Give me the head-office address and city, and its main phone line.",
          "where is the head office of {symbol}? I need the street address, the city and the phone number.",
          "what's the headquarters address of {symbol}, in which city, and what's the main number?",
          "tell me the address, city and switchboard number of the head office of {symbol}",
          "find the city {symbol} is headquartered in, with the street address and the phone number",
          "look up the head office of {symbol} and give me its street address, city and phone",
          "I want to call the head office of {symbol}. What's the number, and what are the address and city?"),
    gives={"address": ("the head-office address of {symbol}", "the street address of the head office {symbol} reports"),
           "city": ("the city where {symbol} has its head office",
                    "the city the company behind {symbol} has its headquarters in",
                    "the headquarters city of {symbol}"),
           "phone_number": ("the switchboard number of {symbol}",
                            "the head-office phone number of {symbol}")},
)
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


@toolbox.tool(
    asks=("which other listed companies are in the same sector as {symbol}? Largest first, please.",
          "list the sector peers of {symbol}, largest first",
          "who competes with {symbol} in its sector? Rank them by market value.",
          "what other stocks share a sector with {symbol}? Biggest first.",
          "find the competitors of {symbol} in the same industry, ordered by market cap",
          "I'd like to compare {symbol} with its rivals. Which other listed companies are in its sector, from the largest down?",
          "show me the tickers of the other companies in the same sector as {symbol}, biggest first",
          "get the peer group of {symbol}, ranked from largest to smallest",
          "which stocks count as industry peers of {symbol}, sorted by size?",
          "I'm building a comparison table for {symbol}. Which other tickers belong in its sector, ordered from the biggest company to the smallest?",
          "benchmark {symbol} against its sector: which other companies sit alongside it, from the largest downward?",
          "An analyst note mentions rivals of {symbol}. Can you name the other same-sector tickers, biggest valuation first?"),
)
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
        return w.quotes[r["ticker"]] * r["shares_outstanding"] / w.per_usd(r["currency"])

    peers = [r for r in w.companies.values() if r["sector"] == row["sector"] and r["ticker"] != row["ticker"]]
    return [r["ticker"] for r in sorted(peers, key=lambda r: (-value_usd(r), r["ticker"]))]


@toolbox.tool(
    asks=("what dividend yield does {symbol} pay, and how much is the annual dividend per share, in which currency?",
          "get the dividend yield and yearly dividend per share of {symbol}, with its currency",
          "how much does {symbol} pay out in dividends per share each year, in what currency, and what yield is that?",
          "does {symbol} pay a dividend? Give me the yield, the yearly amount per share and the currency it's paid in.",
          "I'm after income stocks. What's the dividend yield of {symbol}, and what does it pay per share a year, in what currency?",
          "look up the trailing dividend of {symbol}: yield, annual payout per share and currency.",
          "find out how much income one share of {symbol} produces in a year, in which currency, and the yield at today's price",
          "what's the payout per share of {symbol} over the last year, and the yield? Say which currency too.",
          "check the dividend figures for {symbol}: yield, per-share amount for the year and currency."),
    gives={"annual_dividend, currency_code": ("the annual dividend per share of {symbol}",
                                              "the yearly dividend paid on one share of {symbol}",
                                              "the dividend paid per share of {symbol} over the last year",
                                              "a year's dividends on one share of {symbol}",
                                              "the yearly payout per share of {symbol}",
                                              "the cash dividend per share of {symbol} over the past twelve months",
                                              "the trailing twelve-month dividend per share of {symbol}",
                                              "the dividend {symbol} paid per share over the last year",
                                              "the annual payout on one share of {symbol}",
                                              "the per-share dividend of {symbol} for the year",
                                              "the yearly dividend on a share of {symbol}")},
)
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


@toolbox.tool(
    asks=("what's the market cap of {symbol}[ in {currency}]?",
          "get the market capitalisation of {symbol}[ in {currency}]",
          "how large a company is {symbol} in terms of market cap[, in {currency}]?",
          "how big is {symbol} by market capitalisation[, expressed in {currency}]?",
          "work out what all the outstanding shares of {symbol} are worth together[ in {currency}]",
          "I'm comparing company sizes. What's the market capitalisation of {symbol}[ in {currency}]?",
          "tell me the market cap of {symbol}[, converted to {currency}]",
          "what is {symbol} worth as a company at today's share price[, in {currency}]?",
          "for a valuation memo, I need the current market capitalisation of {symbol}[ stated in {currency}].",
          "what price tag does the market put on {symbol} as a whole company right now[, in {currency}]?",
          "what is {symbol} worth on the stock market at today's price[, in {currency}]?"),
)
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
    return float(round(local / w.per_usd(row["currency"]) * w.per_usd(currency)))


# --- currencies ------------------------------------------------------------------------

@toolbox.tool(
    asks=("what's the ISO code for {currency_name}?",
          "which three-letter currency code stands for {currency_name}?",
          "find the currency code of {currency_name}",
          'how is "{currency_name}" written as a currency code?',
          "I'm filling in a transfer form that wants a currency code. What's the code for {currency_name}?",
          "translate {currency_name} into its ISO 4217 code",
          'what three letters do banks use for "{currency_name}"?',
          "look up the standard currency code for {currency_name}",
          'give me the code forex sites use for "{currency_name}"'),
    gives={"currency_code": "{currency_name}"},  # people say "yen"; the code is the agent's part
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


@toolbox.tool(
    asks=("convert {money} into {to_currency} at today's rate and tell me the rate you used",
          "how much is {money} in {to_currency} today, and at what rate?",
          "what would {money} be worth in {to_currency} at today's rate, and what's the rate?",
          "convert {money} into {to_currency} at the current exchange rate; give me the result and the rate",
          "I'm budgeting in {to_currency}. What does {money} come to in that currency today, and at what rate?",
          "express {money} in {to_currency} using today's rate, and show the rate",
          "what's {money} worth in {to_currency} today? Give me the exchange rate as well.",
          "at today's rate, what is {money} in {to_currency}? Give me the converted amount and the rate.",
          "at today's market rate, what does {money} come to in {to_currency}? Include the rate.",
          "I keep my accounts in {to_currency}. What is {money} once converted at today's rate, and what is that rate?",
          "convert {money} into {to_currency} at the spot rate, showing both the converted figure and the rate",
          "what does {money} translate to in {to_currency} right now? Quote the rate alongside.",
          "My card is billed in {to_currency}. How much is {money} once converted today, and what's the conversion rate?",
          "figure out what {money} amounts to in {to_currency} at the current rate, plus that rate",
          "for our finance team: convert {money} into {to_currency} at the prevailing rate and report both the result and the rate used.",
          "I'm comparing prices across borders. What is {money} in {to_currency} at today's rate, and what is that rate?",
          "Quick conversion at today's rate, please: {money} into {to_currency}. I need the result and the rate.",
          "what's the exchange value of {money} in {to_currency} today, and what rate are you using?",
          "work out {money} in {to_currency} using the live rate and show me that rate too",
          "I only really think in {to_currency}. Convert {money} for me at today's rate and tell me that rate.",
          "how much is {money} worth in {to_currency}, and what's the going exchange rate?",
          "show {money} converted to {to_currency} at the current rate, along with that rate",
          "what's the equivalent of {money} in {to_currency} today, and at what rate?",
          "I'm reporting to head office in {to_currency}. Convert {money} at today's rate and give me the rate I should footnote.",
          "I want to see {money} in {to_currency} at today's rate. What's the figure, and what is that rate?",
          "Before I commit, tell me what {money} is in {to_currency} and what the current rate is.",
          "if I converted {money} into {to_currency} today, what would I end up with, and at what rate?",
          "calculate how much {money} comes to in {to_currency} at today's rate and state the rate",
          "My accountant wants {money} shown in {to_currency} at today's rate. What's the converted total, and what is that rate?",
          "We're settling up in {to_currency}. What does {money} work out to today, and at which rate?",
          "what's {money} in {to_currency} at today's rate, and what is that rate?",
          "tell me how much {money} is in {to_currency} today and the rate behind it",
          "convert {money} into {to_currency} at today's rate and give me the rate too",
          "what is {money} worth in {to_currency} at today's rate? Include the rate.",
          "work out {money} in {to_currency} at the current rate, and that rate",
          "put {money} into {to_currency} terms at today's rate and tell me the exchange rate",
          "what does {money} convert to in {to_currency} today, and at what rate?",
          "how much does {money} come to in {to_currency} today, and what's the rate?",
          "convert {money} into {to_currency} for me at today's rate and mention the rate",
          "convert {money} into {to_currency} at the current rate and show me the exchange rate",
          "what's {money} expressed in {to_currency} today? Give me the rate used too.",
          "tell me what {money} comes to in {to_currency} today, and the rate",
          "find out what {money} is worth in {to_currency} and the rate that applies today",
          "convert {money} into {to_currency} at today's rate and tell me that rate"),
    groups={"money": "{amount} {from_currency}"},  # an amount never travels without its currency
    sense=(distinct("from_currency", "to_currency"),),
)
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
    rate = round(w.per_usd(to_currency) / w.per_usd(from_currency), 6)  # the quoted rate is the one applied
    return round(amount * rate, 2), rate


@toolbox.tool(
    asks=("what was the exchange rate from {base_currency} to {quote_currency} on {date}?",
          "how many units of {quote_currency} did one unit of {base_currency} buy on {date}?",
          "get the reference rate from {base_currency} into {quote_currency} for {date}",
          "what was {base_currency} worth in {quote_currency} on {date}?",
          "I'm reconciling an invoice dated {date}. What was the reference rate from {base_currency} to {quote_currency} that day?",
          "find the daily reference rate for converting {base_currency} into {quote_currency} on {date}",
          "on {date}, what did one unit of {base_currency} cost in {quote_currency}?",
          "check the historical exchange rate of {base_currency} against {quote_currency} on {date}",
          "tell me the rate for one unit of {base_currency} in {quote_currency} as of {date}",
          "We're closing the books. What reference rate applied to {base_currency} against {quote_currency} on {date}?",
          "My expense claim from {date} was paid in {base_currency}. How much {quote_currency} did one unit of it fetch that day?",
          "pull the published conversion rate from {base_currency} into {quote_currency} dated {date}",
          "for an audit trail, I need the official rate between {base_currency} and {quote_currency} as published on {date}."),
    sense=(distinct("base_currency", "quote_currency"), around("date", before=HISTORY_DAYS, after=0)),
)
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
    day = _day(date)
    require(FIRST_DAY <= day <= TODAY, f"no reference rate for {date}: rates cover {FIRST_DAY} to {TODAY}")
    return round(w.per_usd(quote_currency, day) / w.per_usd(base_currency, day), 6)


@toolbox.tool(
    asks=("which currency is used in {country}?",
          "what's the official currency of {country}?",
          "find out what money they use in {country}",
          "what currency would I need for a trip to {country}? Give me its code.",
          "look up the ISO currency code of {country}",
          "I'm opening a bank account in {country}. Which currency will it be held in?",
          "tell me the legal tender of {country} and its code",
          "what do people in {country} pay with, currency-wise?"),
    gives={"currency_code": ("the currency of {country}",
                             "the official currency of {country}",
                             "the currency used in {country}",
                             "the local currency of {country}",
                             "the national currency of {country}",
                             "the money they use in {country}",
                             "the currency people pay with in {country}",
                             "the legal tender in {country}",
                             "the currency visitors spend in {country}",
                             "the domestic currency of {country}",
                             "the currency that circulates in {country}",
                             "the currency a traveller needs in {country}",
                             "the currency that prices in {country} are quoted in")},
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
    return w.quotes[ticker] * shares / w.per_usd(row["currency"])


@toolbox.tool(
    asks=("buy {shares} share(s) of {symbol} and tell me my cash balance and how many I hold afterwards",
          "put in an order for {shares} share(s) of {symbol}; how much cash is left and what's my holding now?",
          "I'd like to own more of {symbol}. Buy {shares} share(s) and tell me my cash and holding afterwards.",
          "purchase {shares} share(s) of {symbol} for my account and report the remaining cash and shares held",
          "add {shares} share(s) of {symbol} to my portfolio; what's my cash balance after that, and how many shares do I own?",
          "I'm bullish on {symbol}. Pick up {shares} share(s) for me and let me know the cash left and my new share count.",
          "place a buy order for {shares} share(s) of {symbol} and show me my remaining cash and total shares",
          "can you buy me {shares} share(s) of {symbol}? I'd like to know my cash balance and holding once it's done.",
          "invest in {shares} share(s) of {symbol} at today's price and tell me my leftover cash and position size",
          "I've done my homework on {symbol} and I'm ready to go in. Buy {shares} share(s) and report my remaining cash and total position.",
          "Execute a market buy: {shares} share(s) of {symbol}. Confirm the cash left over and the share count I now hold.",
          "top up my stake in {symbol} by {shares} share(s); where does that leave my cash, and how many will I own?",
          "grab {shares} share(s) of {symbol} while the price looks good and tell me the cash I've got left and my updated holding"),
    sense=(within("shares", 1, 50),),
    requires=("account_verified",),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=("sell {shares} share(s) of {symbol} and tell me my cash balance and how many I still hold",
          "put in a sell order for {shares} share(s) of {symbol}; what cash do I have afterwards and how many shares are left?",
          "I want to trim my position in {symbol}. Sell {shares} share(s) and tell me my cash and remaining shares.",
          "dispose of {shares} share(s) of {symbol} and report my cash balance and remaining holding",
          "offload {shares} share(s) of {symbol}; how much cash will I have, and how many shares will remain?",
          "I need some cash. Sell {shares} share(s) of {symbol} and let me know my new balance and how many shares of it I still own.",
          "cash out {shares} share(s) of {symbol} and show me my cash balance and the shares left",
          "reduce my holding in {symbol} by {shares} share(s) and tell me the cash balance and the shares remaining",
          "can you sell {shares} share(s) of {symbol} for me? Tell me my cash afterwards and how many shares I'm left with.",
          "I'm rebalancing. Unload {shares} share(s) of {symbol}; what's my cash balance now, and what's left of the position?",
          "liquidate {shares} share(s) of {symbol} and tell me my resulting cash balance and remaining share count",
          "I'm trimming my position in {symbol}. Sell {shares} share(s) and let me know my cash and what I still hold.",
          "lighten up on {symbol} by selling {shares} share(s); how much cash does that leave in the account, and how many shares remain?"),
    sense=(within("shares", 1, 50),),
    requires=("account_verified",),
    tags=("state_change", "ends"),
)
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


@toolbox.tool(
    asks=("how many shares of {symbol} do I hold, and what are they worth?",
          "check my position in {symbol}: share count and current value.",
          "what's my holding in {symbol} worth today, and how many shares is it?",
          "how much of {symbol} is in my portfolio, in shares and in dollars?",
          "look up how much of {symbol} is in my account and what it's worth in dollars",
          "I'm reviewing my investments. How many shares of {symbol} do I have, and what's their market value?",
          "tell me the size and dollar value of my stake in {symbol}",
          "what's my exposure to {symbol}? Give me the shares held and their value.",
          "get my current share count in {symbol} and its value at today's price",
          "what's my position in {symbol}: how many shares, and what are they worth now?",
          "tell me how many shares of {symbol} I own and their current value",
          "how big is my holding of {symbol}, in shares and in dollars?",
          "check how many shares of {symbol} I hold and their value at today's price",
          "what do my shares of {symbol} come to today, and how many do I have?"),
)
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


@toolbox.tool(
    asks=("how much cash and stock do I have in my brokerage account, and what's my biggest position?",
          "summarise my brokerage account: cash, value of my holdings and my largest position.",
          "give me an overview of my portfolio with the cash balance, the holdings value and the largest holding",
          "what does my portfolio look like today? Cash, holdings value and the biggest position, please.",
          "give me the state of my trading account: how much cash, what the shares are worth in total, and which stock is my largest.",
          "I'm checking in on my investments. What's my cash balance, the total value of my stocks, and my top holding?",
          "what are the shares in my portfolio worth right now, how much cash is sitting beside them, and which position is biggest?",
          "show my account's cash balance, total holdings value and largest position",
          "run me through my brokerage account: cash on hand, market value of my shares and the holding that's worth the most."),
    gives={"largest_holding": ("the largest holding in my portfolio",
                               "the most valuable position in my portfolio",
                               "the top holding in my brokerage account",
                               "my largest shareholding",
                               "the stock I have the most money in",
                               "the heaviest-weighted stock in my brokerage account",
                               "the stock my portfolio is most exposed to")},
)
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


@toolbox.tool(
    asks=("verify my trading account with my {document} and tell me the status afterwards",
          "use my {document} to verify my brokerage account, and confirm whether it went through",
          "I want to start trading. Verify my account with my {document} and let me know the verification status.",
          "complete the identity check on my brokerage account using my {document}; what's the account status now?",
          "submit my {document} to get my brokerage account verified, and report the resulting status",
          "can you get my trading account verified with my {document}? Tell me the status once it's done.",
          "My broker needs proof of identity. Verify the account with my {document} and tell me where the verification stands.",
          "run identity verification on my brokerage account with my {document} and give me the outcome",
          "get my account cleared for trading with my {document} as proof of identity, and tell me the verification status"),
    requires=("two_factor_enabled",),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=("turn on two-factor sign-in for my brokerage account with codes sent to {phone_number}, and confirm the number",
          "set up two-factor authentication on my trading account using {phone_number} and tell me which number the codes will go to",
          "send my brokerage sign-in codes to {phone_number} from now on, and confirm the number on file",
          "I want extra security on my trading account. Enable two-factor sign-in with texts to {phone_number} and confirm the number.",
          "activate 2FA on my brokerage login with {phone_number} as the phone for codes; which number is registered now?",
          "protect my brokerage account with two-step verification by text to {phone_number}, and read back the number it uses",
          "can you switch on text-message sign-in codes for my trading account, sent to {phone_number}? Confirm the number afterwards.",
          "register {phone_number} for two-factor codes on my brokerage account and confirm which phone is set",
          "enable two-factor login for my investment account, sending codes to {phone_number}, and tell me the confirmed phone number"),
    tags=("state_change",),
)
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
    context=("If the account has to be verified first, use my {document}.",
             "Verify the account with my {document} if it needs it.",
             "Should the brokerage want my ID, verify the account with my {document}."),
    says=("My brokerage account still hasn't been verified.",
          "The identity check on my trading account is still pending.",
          "My brokerage account is still waiting on verification."),
)
toolbox.condition(
    "two_factor_enabled",
    holds=lambda w: bool(w.state.get("two_factor_phone")),
    broken_state={"two_factor_phone": None},
    fix=("enable_two_factor_auth", {"phone_number": "+1-415-555-0134"}),
    context=("If my account needs two-factor sign-in, my mobile number is {phone_number}.",
             "Send two-factor sign-in codes to my phone, {phone_number}, if the account asks for them.",
             "Use my mobile, {phone_number}, for sign-in codes if you need to."),
    says=("I never set up two-factor sign-in on my brokerage account.",
          "Two-step login isn't turned on for my trading account.",
          "My brokerage login still has no second factor."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------

toolbox.goal(
    "research a stock",
    wants="size up a listed company before I invest: its price and how it moved, its size, dividend, sector and peers",
    role="investor",
    tools=("lookup_ticker_symbol", "search_markets", "get_stock_quote", "get_historical_close",
           "get_price_change_percent", "get_company_profile", "find_sector_peers", "get_dividend_yield",
           "get_market_cap", "currency_name_to_code", "convert_currency_amount"),
)
toolbox.goal(
    "manage my portfolio",
    wants="see what I hold and what it is worth in my own currency, and buy or sell shares on a secured account",
    role="investor",
    tools=("get_portfolio_summary", "get_portfolio_position", "lookup_ticker_symbol", "get_stock_quote",
           "get_price_change_percent", "get_dividend_yield", "currency_name_to_code", "convert_currency_amount",
           "enable_two_factor_auth", "verify_trading_account", "buy_shares", "sell_shares"),
)
toolbox.goal(
    "reach a company I own",
    wants="find out who runs a company I hold shares in and how to write to or call its head office",
    role="shareholder",
    tools=("get_portfolio_summary", "get_portfolio_position", "lookup_ticker_symbol", "get_company_profile",
           "get_company_headquarters"),
)
toolbox.goal(
    "change money",
    wants="know which currency a country uses and what an amount is worth in it, today or on a past day",
    role="someone paying in another currency",
    tools=("get_country_currency_code", "currency_name_to_code", "convert_currency_amount", "get_fx_rate_on_date"),
)
