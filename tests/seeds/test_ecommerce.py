"""Behaviour of every E-commerce tool, including its error cases."""

from datetime import date, timedelta

import pytest

from factory.toolbox.gazetteer import NOW
from tests.seeds.toolbox_helpers import ToolboxSession

TODAY = NOW.date()


@pytest.fixture(scope="module")
def shop():
    return ToolboxSession("ecommerce")


def _orders(session, status):
    return sorted(oid for oid, o in session.world.orders.items() if o["status"] == status)


def _returnable(session):
    taken = {r["order"] for r in session.world.returns.values()}
    return [oid for oid in _orders(session, "delivered") if oid not in taken
            and TODAY - date.fromisoformat(session.world.orders[oid]["delivery_date"]) <= timedelta(days=30)]


def _in_stock(session):
    return next(sku for sku, p in sorted(session.world.products.items()) if p["stock"] >= 10)


def test_search_and_resolve_products(shop):
    hits = shop.ok("search_store", query="earbuds")
    assert hits == ["EL-1001"]
    books = shop.ok("search_store", query="books", max_results=50)
    assert books and all(shop.world.products[s]["category"] == "Books" or shop.world.products[s]["seller"] == "Pagekeeper Books"
                         for s in books)
    assert len(shop.ok("search_store", query="home & kitchen", max_results=3)) == 3
    assert shop.ok("search_store", query="zeppelin") == []
    assert all(shop.ok("search_store", query=q) for q in shop.values("product_search_terms"))
    assert "between 1 and 50" in shop.error("search_store", query="lamp", max_results=0)
    assert "at least one word" in shop.error("search_store", query="the")
    assert shop.ok("resolve_product_sku", product="the aurora earbuds") == "EL-1001"
    assert shop.ok("resolve_product_sku", product="Crisp Air Fryer") == "HK-1002"
    for mention in shop.values("product_mention"):
        assert shop.ok("resolve_product_sku", product=mention) in shop.world.products
    assert "no product matches" in shop.error("resolve_product_sku", product="flux capacitor")
    assert "matches 2 products" in shop.error("resolve_product_sku", product="robot")
    assert "no product matches" in shop.error("resolve_product_sku", product="the")


def test_product_facts(shop):
    name, price, category, seller = shop.ok("get_product_details", sku="EL-1001")
    assert name == "Aurora X2 Wireless Earbuds" and category == "Electronics" and price > 0
    assert "EL-1001" in shop.ok("search_store", query=category, max_results=50)  # the category is a search phrase
    email, phone, city = shop.ok("get_seller_info", seller=seller)
    assert email.startswith("support@") and phone.startswith("+") and city
    assert "unknown seller" in shop.error("get_seller_info", seller="Acme")
    units, warehouse = shop.ok("check_product_stock", sku="el-1001")  # SKUs are case-insensitive
    assert units == shop.world.products["EL-1001"]["stock"] and warehouse == city
    rating, count, reviewer = shop.ok("get_product_reviews", sku="EL-1001")
    assert 1 <= rating <= 5 and count >= 3 and reviewer in {c["name"] for c in shop.world.customers.values()}
    assert "unknown SKU" in shop.error("get_product_details", sku="XX-0000")
    assert "unknown SKU" in shop.error("get_product_reviews", sku="XX-0000")


def test_shipping_estimates_depend_on_distance(shop):
    _, _, _, seller = shop.ok("get_product_details", sku="BK-1002")
    home = shop.ok("get_seller_info", seller=seller)[2]
    near_cost, near_day = shop.ok("estimate_shipping", sku="BK-1002", destination_city=home)
    far = "Auckland" if home != "Auckland" else "London"
    far_cost, far_day = shop.ok("estimate_shipping", sku="BK-1002", destination_city=far)
    assert near_cost == 4.99 and far_cost > near_cost and far_day > near_day > TODAY.isoformat()
    assert "does not deliver" in shop.error("estimate_shipping", sku="BK-1002", destination_city="Atlantis")


def test_coupons_and_currency_prices(shop):
    price = shop.world.products["EL-1001"]["price"]
    assert shop.ok("validate_coupon", coupon_code="tech15", sku="EL-1001") == (True, round(price * 0.85, 2))
    assert shop.ok("validate_coupon", coupon_code="READMORE20", sku="EL-1001") == (False, price)
    assert shop.ok("validate_coupon", coupon_code="WELCOME10", sku="EL-1001")[0] is True
    assert "expired on 2025-05-31" in shop.error("validate_coupon", coupon_code="SPRING30", sku="EL-1001")
    assert "does not exist" in shop.error("validate_coupon", coupon_code="FREESTUFF", sku="EL-1001")
    assert "SPRING30" not in shop.values("coupon_code")
    assert shop.ok("get_product_price", sku="EL-1001", currency="JPY") == round(price * 149.5, 2)
    assert shop.ok("get_product_price", sku="EL-1001", currency="USD") == price
    assert "unknown currency" in shop.error("get_product_price", sku="EL-1001", currency="BTC")


def test_an_order_takes_a_coupon_that_covers_its_product():
    """A coupon checked for a product is one the order can use: the total is the price after it;
    one that does not cover the product, or has expired, is refused with the way on; the
    composer's sense rule draws only coupons that cover the product ordered."""
    s = ToolboxSession("ecommerce")
    sku = next(sku for sku, p in sorted(s.world.products.items()) if p["stock"] >= 10 and p["category"] == "Electronics")
    applies, after = s.ok("validate_coupon", coupon_code="TECH15", sku=sku)
    assert applies and s.ok("place_order", sku=sku, quantity=2, coupon_code="tech15")[1] == round(after * 2, 2)
    assert "does not apply to Electronics; order without it" in s.error("place_order", sku=sku, quantity=1,
                                                                        coupon_code="READMORE20")
    assert "expired" in s.error("place_order", sku=sku, quantity=1, coupon_code="SPRING30")
    rule = next(r for r in s.seed.toolbox.tools["place_order"].sense if r.kind == "sensible")
    assert rule.violation({"sku": sku, "coupon_code": "WELCOME10"}, {}) is None
    assert rule.violation({"sku": sku, "coupon_code": "READMORE20"}, {}) and rule.violation({"sku": sku}, {}) is None


def test_customers_and_their_orders(shop):
    cid = shop.ok("find_customer_by_email", email="Maria.Lopez@example.com")
    assert cid == "CUS-1001"
    name, email, phone, address, city = shop.ok("get_customer_profile", customer_id=cid)
    assert name == "Maria Lopez" and email == "maria.lopez@example.com" and address.endswith(", " + city)
    assert "no customer account" in shop.error("find_customer_by_email", email="nobody@example.com")
    assert "not an email address" in shop.error("find_customer_by_email", email="maria lopez")
    assert "unknown customer id" in shop.error("get_customer_profile", customer_id="CUS-9")
    orders = shop.ok("list_customer_orders", customer_id=cid)
    dates = [shop.world.orders[o]["order_date"] for o in orders]
    assert orders and dates == sorted(dates, reverse=True)
    status, delivery, ship_to, skus = shop.ok("get_order_details", order_id=orders[0])
    assert ship_to == address and skus == sorted(shop.world.orders[orders[0]]["items"])
    assert status == shop.world.orders[orders[0]]["status"]
    assert "unknown order" in shop.error("get_order_details", order_id="ORD-1")
    assert "unknown customer id" in shop.error("list_customer_orders", customer_id="nobody")


def test_tracking_follows_order_status(shop):
    delivered = _orders(shop, "delivered")[0]
    carrier, event, where, eta = shop.ok("track_shipment", order_id=delivered)
    order = shop.world.orders[delivered]
    assert (carrier, event, where, eta) == (order["carrier"], "delivered", order["city"], order["delivery_date"])
    shipped = _orders(shop, "shipped")[0]
    assert shop.ok("track_shipment", order_id=shipped)[1] == "in transit"
    cancelled = _orders(shop, "cancelled")[0]
    assert shop.ok("get_order_details", order_id=cancelled)[1] == ""
    assert "was cancelled" in shop.error("track_shipment", order_id=cancelled)


def test_place_order_and_cancel_it():
    s = ToolboxSession("ecommerce")
    sku = _in_stock(s)
    units = s.ok("check_product_stock", sku=sku)[0]
    order_id, total = s.ok("place_order", sku=sku, quantity=2)
    assert total == round(s.world.products[sku]["price"] * 2, 2)
    assert s.ok("check_product_stock", sku=sku)[0] == units - 2
    assert order_id in s.ok("list_customer_orders", customer_id=s.world.account)
    status, _, address, skus = s.ok("get_order_details", order_id=order_id)
    assert status == "processing" and skus == [sku] and address == s.world.customers[s.world.account]["address"]
    assert s.ok("track_shipment", order_id=order_id)[1] == "label created"
    assert "only delivered orders" in s.error("start_return", order_id=order_id, reason="damaged")
    assert s.ok("cancel_order", order_id=order_id) == ("cancelled", total)
    assert s.ok("get_order_details", order_id=order_id)[0] == "cancelled"
    assert "already cancelled" in s.error("cancel_order", order_id=order_id)
    second, _ = s.ok("place_order", sku=sku, quantity=1)
    assert second != order_id


def test_place_order_checks_stock_and_quantity():
    s = ToolboxSession("ecommerce")
    sold_out = next(sku for sku, p in sorted(s.world.products.items()) if p["stock"] == 0)
    assert "sold out" in s.error("place_order", sku=sold_out, quantity=1)
    sku = next(sku for sku, p in sorted(s.world.products.items()) if p["stock"] >= 10 and p["category"] == "Electronics")
    assert "between 1 and 10" in s.error("place_order", sku=sku, quantity=11)
    assert s.ok("place_order", sku=sku, quantity=1)[1] == s.world.products[sku]["price"]
    s.world.state["sold"] = {sku: s.world.products[sku]["stock"] - 3}  # only 3 left
    assert "only 3 units" in s.error("place_order", sku=sku, quantity=4)
    assert s.ok("check_product_stock", sku=sku)[0] == 3


def test_cancel_rules():
    s = ToolboxSession("ecommerce")
    shipped = _orders(s, "shipped")[0]
    assert s.ok("cancel_order", order_id=shipped)[0] == "cancelled"
    assert "start a return instead" in s.error("cancel_order", order_id=_orders(s, "delivered")[0])
    out = _orders(s, "out for delivery")
    assert out, "the seed world has orders out for delivery"
    assert "out for delivery" in s.error("cancel_order", order_id=out[0])


def test_returns_and_refunds():
    s = ToolboxSession("ecommerce")
    order_id = _returnable(s)[0]
    return_id, refund = s.ok("start_return", order_id=order_id, reason="damaged")
    assert refund == s.world.orders[order_id]["total"]
    assert s.ok("get_refund_status", return_id=return_id) == ("pending", refund)
    assert "already has a return" in s.error("start_return", order_id=order_id, reason="wrong-item")
    existing = sorted(s.world.returns)[0]
    assert s.ok("get_refund_status", return_id=existing)[0] in {"pending", "awaiting item", "processing", "refunded"}
    assert "unknown return" in s.error("get_refund_status", return_id="RET-1")
    assert "must be one of" in s.error("start_return", order_id=order_id, reason="bored")
    old = [oid for oid in _orders(s, "delivered")
           if TODAY - date.fromisoformat(s.world.orders[oid]["delivery_date"]) > timedelta(days=30)]
    assert old, "the seed world has orders delivered more than 30 days ago"
    assert "return window" in s.error("start_return", order_id=old[0], reason="damaged")


def test_checkout_needs_payment_method_which_needs_billing_address():
    s = ToolboxSession("ecommerce", state={"payment_methods": [], "billing_address": None})
    sku = _in_stock(s)
    assert "no payment method on file" in s.error("place_order", sku=sku, quantity=1)
    assert "no billing address" in s.error("add_payment_method", method="PayPal")
    assert "ending with a city" in s.error("set_billing_address", address="12 Nowhere Lane")
    assert s.ok("set_billing_address", address="12 Oak Avenue, Toronto") == "Toronto"
    assert s.ok("add_payment_method", method="PayPal") == "paypal-1"
    assert s.ok("place_order", sku=sku, quantity=1)[0].startswith("ORD-")


def test_conditions_hold_by_default_and_their_fixes_restore_them():
    s = ToolboxSession("ecommerce")
    conditions = s.seed.toolbox.conditions
    assert set(conditions) == {"payment_method_on_file", "billing_address_on_file"}
    for condition in conditions.values():
        assert condition.holds(s.world)
        broken = ToolboxSession("ecommerce", state=condition.broken_state)
        assert not condition.holds(broken.world)
        broken.ok(condition.fix_tool, **condition.fix_arguments)
        assert condition.holds(broken.world)
    assert s.seed.toolbox.tools["add_payment_method"].requires == ("billing_address_on_file",)


def test_worlds_are_deterministic():
    a, b = ToolboxSession("ecommerce"), ToolboxSession("ecommerce")
    assert a.world.products == b.world.products and a.world.orders == b.world.orders
    assert ToolboxSession("ecommerce", world_seed=3).world.orders != a.world.orders
    assert ToolboxSession("ecommerce").ok("list_customer_orders", customer_id="CUS-1001") == \
        b.ok("list_customer_orders", customer_id="CUS-1001")


def test_literal_order_ids_fit_the_action_that_takes_them():
    s = ToolboxSession("ecommerce")
    values = s.seed.toolbox.values
    open_orders, returnable = values["order_id/open_order"](s.world), values["order_id/delivered_order"](s.world)
    assert open_orders and returnable and not set(open_orders) & set(returnable)
    assert returnable == _returnable(s)
    for order_id in open_orders:  # the orders a status check or tracking request is about
        assert s.ok("track_shipment", order_id=order_id)[1] in ("label created", "in transit")
    for order_id in open_orders:
        assert s.ok("cancel_order", order_id=order_id)[0] == "cancelled"
    for order_id in returnable:
        assert s.ok("start_return", order_id=order_id, reason="damaged")[0].startswith("RET-")


def test_literal_products_can_be_ordered_and_a_new_billing_address_changes_the_account():
    s = ToolboxSession("ecommerce")
    for sku in s.values("product"):
        assert s.ok("place_order", sku=sku, quantity=1)[0].startswith("ORD-")
    on_file = s.world.state["billing_address"]
    addresses = s.values("address")
    assert addresses and on_file not in addresses  # setting the same address again would change nothing
    assert s.ok("set_billing_address", address=addresses[0]) == addresses[0].rsplit(", ", 1)[1]


def test_store_amounts_are_dollars_and_ids_read_with_their_noun(shop):
    toolbox = shop.seed.toolbox
    amounts = [(name, out) for name, spec in shop.seed.specs.items() for out in spec.returns if out.kind == "money_amount"]
    assert amounts and all(out.role == "usd" for _, out in amounts)
    assert toolbox.written["order_id"].format("ORD-50001") == "order ORD-50001"
    order = shop.values("order_id")[0]
    assert toolbox.facts["order_id"](shop.world, order)["customer_id"] == shop.world.orders[order]["customer"]


def test_support_goals_hold_no_tool_that_speaks_as_the_buyer(shop):
    # Looking any customer up by email is the store's support staff; a request that also says
    # "before I check out" or "I no longer want it" puts one "I" in two roles.
    buyer = {"place_order", "cancel_order", "start_return", "validate_coupon", "estimate_shipping",
             "add_payment_method", "set_billing_address"}
    support = [g for g in shop.seed.toolbox.goals.values() if "find_customer_by_email" in g.tools]
    assert support and all(not buyer & set(g.tools) for g in support)
