"""Behaviour of every Finance and Stocks tool, including its error cases."""

from datetime import date, timedelta

import pytest

from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW
from tests.seeds.toolbox_helpers import ToolboxSession

TODAY = NOW.date()


@pytest.fixture(scope="module")
def fin():
    return ToolboxSession("finance_stocks")


def test_company_names_resolve_to_tickers(fin):
    assert fin.ok("lookup_ticker_symbol", company="Sakura Robotics") == "SKRB"
    assert fin.ok("lookup_ticker_symbol", company="halcyon semiconductor inc.") == "HLCN"
    assert fin.ok("lookup_ticker_symbol", company="Nordvik") == "NRDV"  # a unique part of the name
    for form in fin.values("company_name"):
        assert fin.ok("lookup_ticker_symbol", company=form) in fin.world.companies
    assert "no single listed company" in fin.error("lookup_ticker_symbol", company="Health")  # two companies
    assert "no listed company matches" in fin.error("lookup_ticker_symbol", company="Acme Widgets")
    assert "must name a company" in fin.error("lookup_ticker_symbol", company="  ")


def test_market_search(fin):
    assert fin.ok("search_markets", query="technology japan") == []
    hits = fin.ok("search_markets", query="industrials japan")
    assert hits == ["KNRL", "SKRB"]
    assert fin.ok("search_markets", query="materials", max_results=2) == sorted(
        t for t, r in fin.world.companies.items() if r["sector"] == "Materials")[:2]
    ceo = fin.world.companies["GPKB"]["ceo"]
    assert "GPKB" in fin.ok("search_markets", query=ceo)
    assert all(fin.ok("search_markets", query=q) for q in fin.values("market_search_terms"))
    assert "between 1 and 30" in fin.error("search_markets", query="energy", max_results=31)
    assert "at least one word" in fin.error("search_markets", query="!!")


def test_quote_and_history(fin):
    price, currency = fin.ok("get_stock_quote", symbol="SKRB")
    assert currency == "JPY" and price > 100 and price == fin.world.quotes["SKRB"]
    assert fin.ok("get_stock_quote", symbol="skrb") == (price, currency)  # case does not matter
    assert "unknown ticker symbol" in fin.error("get_stock_quote", symbol="ZZZZ")
    friday = "2025-05-02"
    close, currency, day = fin.ok("get_historical_close", symbol="HLCN", date=friday)
    assert day == friday and close == fin.world.closes["HLCN"][friday] and currency == "USD"
    # The close comes with its currency, so it can be converted without mixing in another currency.
    assert fin.ok("get_historical_close", symbol="SKRB", date=friday)[1] == "JPY"
    # Weekends and market holidays give the previous trading day's close.
    assert fin.ok("get_historical_close", symbol="HLCN", date="2025-05-04") == (close, "USD", friday)
    assert fin.ok("get_historical_close", symbol="HLCN", date="2025-04-21")[2] == "2025-04-17"
    assert "not closed yet" in fin.error("get_historical_close", symbol="HLCN", date=TODAY.isoformat())
    assert "future" in fin.error("get_historical_close", symbol="HLCN", date="2025-07-01")
    assert "history covers" in fin.error("get_historical_close", symbol="HLCN", date="2024-12-01")
    assert "YYYY-MM-DD" in fin.error("get_historical_close", symbol="HLCN", date="May 2")
    for d in fin.values("date"):  # every generated date has a close
        assert fin.ok("get_historical_close", symbol="LSEN", date=d)[0] > 0


def test_percent_change_matches_closes(fin):
    start, _, _ = fin.ok("get_historical_close", symbol="TMIN", date="2025-03-03")
    end, _, _ = fin.ok("get_historical_close", symbol="TMIN", date="2025-06-06")
    change = fin.ok("get_price_change_percent", symbol="TMIN", start_date="2025-03-03", end_date="2025-06-06")
    assert change == round((end - start) / start * 100, 2)
    assert fin.ok("get_price_change_percent", symbol="TMIN", start_date="2025-06-07", end_date="2025-06-08") == 0.0
    assert "not closed yet" in fin.error("get_price_change_percent", symbol="TMIN", start_date="2025-03-03",
                                         end_date=TODAY.isoformat())


def test_company_facts(fin):
    name, sector, country, ceo = fin.ok("get_company_profile", symbol="SKRB")
    assert (name, sector, country) == ("Sakura Robotics", "Industrials", "Japan") and len(ceo.split()) == 2
    address, city, phone = fin.ok("get_company_headquarters", symbol="SKRB")
    assert city == "Tokyo" and address.endswith(", Tokyo") and phone.startswith("+81-")
    peers = fin.ok("find_sector_peers", symbol="SKRB")
    assert "SKRB" not in peers and "KNRL" in peers
    assert all(fin.world.companies[p]["sector"] == "Industrials" for p in peers)
    caps = [fin.ok("get_market_cap", symbol=p) for p in peers]
    assert caps == sorted(caps, reverse=True)  # largest first
    assert fin.ok("find_sector_peers", symbol="SMTR") == ["DFPR"]
    assert "unknown ticker symbol" in fin.error("get_company_profile", symbol="NOPE")
    assert "unknown ticker symbol" in fin.error("get_company_headquarters", symbol="NOPE")


def test_dividends_and_market_cap(fin):
    for ticker, row in fin.world.companies.items():
        yield_pct, dividend, currency = fin.ok("get_dividend_yield", symbol=ticker)
        assert dividend == row["dividend"] and currency == row["currency"]
        assert (yield_pct == 0.0) == (dividend == 0.0)
    row = fin.world.companies["SKRB"]
    usd = fin.ok("get_market_cap", symbol="SKRB")
    assert usd == pytest.approx(fin.world.quotes["SKRB"] * row["shares_outstanding"] / CURRENCY_BY_CODE["JPY"].per_usd,
                                rel=1e-5)
    eur = fin.ok("get_market_cap", symbol="SKRB", currency="EUR")
    assert eur == pytest.approx(usd * 0.92, rel=1e-4)  # (the quoted yen rates have 6 decimals)
    # A cap in one currency converted by the converter is the cap asked in the other: one rate
    # (a cap asked in US dollars and the one in reais converted differed by 700,000 dollars: reading 86 #26).
    yen = fin.ok("get_market_cap", symbol="SKRB", currency="JPY")
    for currency in ("USD", "EUR", "GBP"):
        converted, _ = fin.ok("convert_currency_amount", amount=yen, from_currency="JPY", to_currency=currency)
        assert converted == pytest.approx(fin.ok("get_market_cap", symbol="SKRB", currency=currency), rel=1e-9)
    assert "unknown currency code" in fin.error("get_market_cap", symbol="SKRB", currency="XXX")


def test_currency_names_and_countries(fin):
    assert fin.ok("currency_name_to_code", currency_name="euro") == "EUR"
    assert fin.ok("currency_name_to_code", currency_name="Japanese Yen") == "JPY"
    assert fin.ok("currency_name_to_code", currency_name="sterling") == "GBP"
    assert fin.ok("currency_name_to_code", currency_name="chf") == "CHF"
    for name in fin.values("currency_name"):
        assert fin.ok("currency_name_to_code", currency_name=name) in CURRENCY_BY_CODE
    assert "ambiguous" in fin.error("currency_name_to_code", currency_name="dollar")
    assert "unknown currency" in fin.error("currency_name_to_code", currency_name="doubloon")
    assert fin.ok("get_country_currency_code", country="Japan") == "JPY"
    assert fin.ok("get_country_currency_code", country="Germany") == "EUR"
    assert "unknown country" in fin.error("get_country_currency_code", country="Atlantis")


def test_conversion_and_rates(fin):
    amount, rate = fin.ok("convert_currency_amount", amount=100.0, from_currency="USD", to_currency="JPY")
    assert (amount, rate) == (14950.0, 149.5)  # today's rate is the shared gazetteer rate
    back, _ = fin.ok("convert_currency_amount", amount=amount, from_currency="JPY", to_currency="USD")
    assert back == 100.0
    assert "must not be negative" in fin.error("convert_currency_amount", amount=-1.0, from_currency="USD", to_currency="EUR")
    # A company that pays no dividend has a dividend of 0, which converts to 0.
    assert fin.ok("convert_currency_amount", amount=0.0, from_currency="USD", to_currency="EUR")[0] == 0.0
    assert "unknown currency code" in fin.error("convert_currency_amount", amount=5.0, from_currency="USD", to_currency="EURO")
    today = fin.ok("get_fx_rate_on_date", base_currency="USD", quote_currency="EUR", date=TODAY.isoformat())
    assert today == 0.92
    earlier = fin.ok("get_fx_rate_on_date", base_currency="USD", quote_currency="EUR", date="2025-03-01")
    assert earlier != today and 0.8 < earlier < 1.05  # rates drift day by day
    assert fin.ok("get_fx_rate_on_date", base_currency="GBP", quote_currency="GBP", date="2025-03-01") == 1.0
    assert "rates cover" in fin.error("get_fx_rate_on_date", base_currency="USD", quote_currency="EUR", date="2025-01-01")
    assert "rates cover" in fin.error("get_fx_rate_on_date", base_currency="USD", quote_currency="EUR",
                                      date=(TODAY + timedelta(days=1)).isoformat())


def test_trading_changes_cash_and_holdings():
    s = ToolboxSession("finance_stocks")
    held, value = s.ok("get_portfolio_position", symbol="HLCN")
    cash0, holdings0, largest = s.ok("get_portfolio_summary")
    assert cash0 == 100000.0 and held > 0 and largest in s.world.companies
    price = s.world.quotes["HLCN"]
    cash1, held1 = s.ok("buy_shares", symbol="HLCN", shares=10)
    assert held1 == held + 10 and cash1 == round(cash0 - round(price * 10, 2), 2)
    assert s.ok("get_portfolio_position", symbol="HLCN")[0] == held1
    cash2, held2 = s.ok("sell_shares", symbol="HLCN", shares=held1)
    assert held2 == 0 and cash2 > cash1 and "HLCN" not in s.world.state["holdings"]
    assert s.ok("get_portfolio_position", symbol="HLCN") == (0, 0.0)
    assert "holds 0" in s.error("sell_shares", symbol="HLCN", shares=1)
    assert "insufficient cash" in s.error("buy_shares", symbol="HLCN", shares=1000)
    assert "between 1 and 1000" in s.error("buy_shares", symbol="HLCN", shares=0)
    assert "at least 1" in s.error("sell_shares", symbol="SKRB", shares=0)
    assert "unknown ticker symbol" in s.error("buy_shares", symbol="QQQQ", shares=1)


def test_buying_in_a_foreign_currency_converts_to_dollars():
    s = ToolboxSession("finance_stocks")
    cash, _ = s.ok("buy_shares", symbol="SKRB", shares=5)
    assert cash == round(100000.0 - round(s.world.quotes["SKRB"] * 5 * round(1 / 149.5, 6), 2), 2)  # the quoted rate


def test_summary_needs_holdings():
    s = ToolboxSession("finance_stocks", state={"holdings": {}})
    assert "holds no shares" in s.error("get_portfolio_summary")


def test_trading_needs_a_verified_account_which_needs_two_factor():
    s = ToolboxSession("finance_stocks", state={"account_verified": False, "two_factor_phone": None})
    assert "not verified" in s.error("buy_shares", symbol="HLCN", shares=1)
    assert "not verified" in s.error("sell_shares", symbol="HLCN", shares=1)
    assert "two-factor" in s.error("verify_trading_account", document="passport")
    assert "international form" in s.error("enable_two_factor_auth", phone_number="555-0134")
    assert s.ok("enable_two_factor_auth", phone_number="+44-20-555-0188") == "+44-20-555-0188"
    assert s.ok("verify_trading_account", document="driving-licence") == "verified"
    assert s.ok("buy_shares", symbol="HLCN", shares=1)[1] >= 1
    assert "must be one of" in s.error("verify_trading_account", document="library card")


def test_conditions_hold_by_default_and_their_fixes_restore_them():
    s = ToolboxSession("finance_stocks")
    conditions = s.seed.toolbox.conditions
    assert set(conditions) == {"account_verified", "two_factor_enabled"}
    for condition in conditions.values():
        assert condition.holds(s.world)
        broken = ToolboxSession("finance_stocks", state=condition.broken_state)
        assert not condition.holds(broken.world)
        broken.ok(condition.fix_tool, **condition.fix_arguments)
        assert condition.holds(broken.world)
    assert s.seed.toolbox.tools["verify_trading_account"].requires == ("two_factor_enabled",)
    assert s.seed.toolbox.tools["buy_shares"].requires == ("account_verified",)


def test_worlds_are_deterministic():
    a, b = ToolboxSession("finance_stocks"), ToolboxSession("finance_stocks")
    assert a.world.quotes == b.world.quotes and a.world.closes == b.world.closes
    assert a.world.companies == b.world.companies
    other = ToolboxSession("finance_stocks", world_seed=5)
    assert other.world.quotes != a.world.quotes
    trading_days = [date.fromisoformat(d) for d in a.world.closes["HLCN"]]
    assert all(d.weekday() < 5 for d in trading_days) and max(trading_days) < TODAY


def test_literal_amounts_come_with_their_currency_at_a_size_people_hold(fin):
    sums = fin.seed.toolbox.joint_values[("money_amount", "currency_code")](fin.world)
    assert {code for _, code in sums} == set(CURRENCY_BY_CODE)
    for amount, code in sums:
        usd = amount / CURRENCY_BY_CODE[code].per_usd
        assert 40 <= usd <= 12000, (amount, code)  # never "5000" of a currency worth 1/1000 of a dollar
        assert fin.ok("convert_currency_amount", amount=amount, from_currency=code, to_currency="USD")[0] > 0


def test_conversions_keep_an_amount_with_its_own_currency(fin):
    entry = fin.seed.toolbox.tools["convert_currency_amount"]
    assert entry.groups == {"money": "{amount} {from_currency}"}
    # Every amount a finance tool returns has its currency next to it, so the pair feeds a conversion.
    for name, spec in fin.seed.specs.items():
        kinds = [out.kind for out in spec.returns]
        if "money_amount" in kinds:
            assert "currency_code" in kinds, name
    close, currency, _ = fin.ok("get_historical_close", symbol="SKRB", date="2025-05-02")
    converted, rate = fin.ok("convert_currency_amount", amount=close, from_currency=currency, to_currency="USD")
    assert converted == round(close / 149.5, 2)


def test_literal_dates_are_trading_days_with_a_close(fin):
    for day in fin.values("date"):
        assert date.fromisoformat(day).weekday() < 5
        assert fin.ok("get_historical_close", symbol="HLCN", date=day)[2] == day


def test_two_factor_numbers_offered_change_the_account():
    s = ToolboxSession("finance_stocks")
    numbers = s.seed.toolbox.values["phone_number/account_holder"](s.world)
    assert s.world.state["two_factor_phone"] not in numbers  # enabling it again would change nothing
    for number in numbers:
        assert s.ok("enable_two_factor_auth", phone_number=number) == number
