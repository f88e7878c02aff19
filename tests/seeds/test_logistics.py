"""Behaviour of every Logistics and Shipping tool, including its error cases and state changes."""

import pytest

from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW, city_distance_km
from tests.seeds.toolbox_helpers import ToolboxSession, chain_problems

SLUG = "logistics"


@pytest.fixture(scope="module")
def lg():
    return ToolboxSession(SLUG)


@pytest.fixture
def fresh():
    return ToolboxSession(SLUG)


def parcel(session, status):
    return next(t for t, row in sorted(session.world.shipments.items()) if row["status"] == status)


def test_tracking_and_details(lg):
    number = parcel(lg, "in transit")
    row = lg.world.shipments[number]
    status, city, eta = lg.ok("get_tracking_status", tracking_number=number)
    assert status == "in transit" and city == row["current"] and eta > "2025-06-13T09:30"
    assert lg.ok("get_tracking_status", tracking_number=number.lower()) == (status, city, eta)
    origin, destination, carrier, weight = lg.ok("get_shipment_details", tracking_number=number)
    assert origin != destination and number.startswith({"SwiftPost": "SP", "Atlas Freight": "AF", "BlueLine Express": "BL",
                                                         "Meridian Cargo": "MC", "Polar Parcel": "PP",
                                                         "Orbit Courier": "OC"}[carrier])
    assert 0 < weight <= 45
    delivered = parcel(lg, "delivered")
    status, city, when = lg.ok("get_tracking_status", tracking_number=delivered)
    assert city == lg.world.shipments[delivered]["destination"] and when < "2025-06-13" and "09:00" <= when[-5:] <= "19:00"
    assert "unknown tracking number" in lg.error("get_tracking_status", tracking_number="XX1")


def test_quotes_scale_with_weight_service_and_distance(lg):
    price, currency, days = lg.ok("quote_shipping_rate", origin_city="Berlin", destination_city="Tokyo",
                                  weight_kg=2.5, service="standard")
    assert currency == "EUR" and price > 0 and days >= 6
    heavier, _, _ = lg.ok("quote_shipping_rate", origin_city="Berlin", destination_city="Tokyo", weight_kg=10.0, service="standard")
    faster, _, fast_days = lg.ok("quote_shipping_rate", origin_city="Berlin", destination_city="Tokyo", weight_kg=2.5, service="express")
    near, _, _ = lg.ok("quote_shipping_rate", origin_city="Berlin", destination_city="Munich", weight_kg=2.5, service="standard")
    assert heavier > price and faster > price and fast_days < days and near < price
    assert lg.ok("quote_shipping_rate", origin_city="Tokyo", destination_city="Berlin", weight_kg=2.5, service="standard")[1] == "JPY"
    assert "at most 70" in lg.error("quote_shipping_rate", origin_city="Berlin", destination_city="Tokyo", weight_kg=90.0, service="standard")
    assert "no service to" in lg.error("quote_shipping_rate", origin_city="Gotham", destination_city="Tokyo", weight_kg=1.0, service="standard")
    assert "must be one of" in lg.error("quote_shipping_rate", origin_city="Berlin", destination_city="Tokyo", weight_kg=1.0, service="teleport")


def test_creating_a_shipment_charges_postage_and_is_trackable(fresh):
    before = fresh.world.state["postage_balance"]
    number, eta = fresh.ok("create_shipment", origin_city="Seattle", destination_address="12 Market Street, Paris",
                           weight_kg=4.0, service="express")
    assert number == "SP900000001" and eta > "2025-06-14"
    assert fresh.world.state["postage_balance"] < before
    assert fresh.ok("get_tracking_status", tracking_number=number) == ("label created", "Seattle", eta)
    assert fresh.ok("get_shipment_details", tracking_number=number) == ("Seattle", "Paris", "SwiftPost", 4.0)
    assert fresh.ok("create_shipment", origin_city="Seattle", destination_address="3 Dock Road, Sao Paulo",
                    weight_kg=1.0, service="standard")[0] == "SP900000002"
    assert "not deliverable" in fresh.error("create_shipment", origin_city="Seattle", destination_address="Main Street, Paris",
                                            weight_kg=1.0, service="standard")
    assert "not deliverable" in fresh.error("create_shipment", origin_city="Seattle", destination_address="1 Elm Street, Springfield",
                                            weight_kg=1.0, service="standard")
    assert "at most 70" in fresh.error("create_shipment", origin_city="Seattle", destination_address="1 Elm Street, Paris",
                                       weight_kg=0.0, service="standard")


def test_shipping_needs_verified_sender_and_postage():
    session = ToolboxSession(SLUG, state={"sender_address_verified": False, "postage_balance": 0.0})
    args = dict(origin_city="London", destination_address="8 Canal Street, Amsterdam", weight_kg=2.0, service="standard")
    assert "verify the sender address first" in session.error("create_shipment", **args)
    assert "verify the sender address first" in session.error("add_postage_credit", amount=100.0)
    assert "verify the sender address first" in session.error("create_return_label", tracking_number=parcel(session, "delivered"))
    assert session.ok("verify_sender_address", address="500 Harbor Way, Seattle") == ("Seattle", "USA")
    assert "add postage credit first" in session.error("create_shipment", **args)
    assert session.ok("add_postage_credit", amount=1000.0) == 1000.0
    assert session.ok("create_shipment", **args)[0].startswith("SP9")
    assert "between 10 and 5000" in session.error("add_postage_credit", amount=5.0)


def test_conditions_hold_by_default_and_break_as_declared(lg):
    conditions = lg.seed.toolbox.conditions
    assert set(conditions) == {"sender_address_verified", "postage_funded"}
    for condition in conditions.values():
        assert condition.holds(lg.world)
        broken = type(lg.world)(**{**lg.world.__dict__, "state": {**lg.world.state, **condition.broken_state}})
        assert not condition.holds(broken)
    # The largest parcel to the farthest city still fits in one top-up.
    assert lg.seed.toolbox.conditions["postage_funded"].fix_arguments["amount"] >= (5 + 1.6 * 70) * 3 * 2.5


def test_verify_sender_address_changes_the_return_address(fresh):
    assert fresh.ok("verify_sender_address", address="44 Station Road, Edinburgh") == ("Edinburgh", "United Kingdom")
    label, address = fresh.ok("create_return_label", tracking_number=parcel(fresh, "delivered"))
    assert label == "RTN-8001" and address == "44 Station Road, Edinburgh"
    assert "not deliverable" in fresh.error("verify_sender_address", address="somewhere nice")
    assert "held in customs" in fresh.error("create_return_label", tracking_number=parcel(fresh, "customs hold"))


def test_warehouses_stock_and_sku_lookup(lg):
    warehouse_id, distance = lg.ok("find_nearest_warehouse", city="Lyon")
    assert warehouse_id in ("WH-MIL", "WH-BER", "WH-MAD", "WH-LON") and 0 < distance < 1000
    assert lg.ok("find_nearest_warehouse", city="Berlin") == ("WH-BER", 0.0)
    city, address, phone = lg.ok("get_warehouse_info", warehouse_id=warehouse_id)
    assert city in address and phone.startswith("+")
    assert "unknown warehouse" in lg.error("get_warehouse_info", warehouse_id="WH-XXX")
    sku = lg.ok("lookup_inventory_sku", product="office chairs")
    assert sku == "SKU-30001" and lg.ok("lookup_inventory_sku", product="an Oak Bookshelf") == "SKU-30029"
    assert lg.ok("lookup_inventory_sku", product="camera drone") == "SKU-30011"
    for mention in lg.values("inventory_product_mention"):
        assert lg.ok("lookup_inventory_sku", product=mention) in lg.values("inventory_sku")
    assert "no single product" in lg.error("lookup_inventory_sku", product="chair")
    units, restock = lg.ok("get_warehouse_stock", sku=sku, warehouse_id=warehouse_id)
    assert 0 <= units < 400 and restock > "2025-06-13"
    assert lg.ok("get_warehouse_stock", sku=sku.lower(), warehouse_id=warehouse_id) == (units, restock)
    assert "unknown SKU" in lg.error("get_warehouse_stock", sku="SKU-1", warehouse_id=warehouse_id)
    assert "unknown warehouse" in lg.error("get_warehouse_stock", sku=sku, warehouse_id="Berlin")


def test_carriers_and_customs(lg):
    phone, email, rate = lg.ok("get_carrier_details", carrier="Atlas Freight")
    assert phone.startswith("+44") and email.endswith("@atlasfreight.example") and 84 <= rate <= 98.5
    assert "unknown carrier" in lg.error("get_carrier_details", carrier="Pony Express")
    duty, currency = lg.ok("estimate_customs_duty", country="Brazil", declared_value_usd=100.0)
    assert currency == "BRL" and duty == round(100 * 0.6 * CURRENCY_BY_CODE["BRL"].per_usd, 2)
    assert lg.ok("estimate_customs_duty", country="USA", declared_value_usd=500.0) == (0.0, "USD")  # under the threshold
    assert "no customs rules" in lg.error("estimate_customs_duty", country="Narnia", declared_value_usd=1.0)
    assert "must not be negative" in lg.error("estimate_customs_duty", country="USA", declared_value_usd=-1.0)


def test_weights_convert_to_kilograms(lg):
    assert lg.ok("convert_weight_to_kg", weight="12 lb") == 5.44
    assert lg.ok("convert_weight_to_kg", weight="2 lb 8 oz") == 1.13
    assert lg.ok("convert_weight_to_kg", weight="750g") == 0.75
    assert lg.ok("convert_weight_to_kg", weight="3.5 KG") == 3.5
    for text in lg.values("weight_text"):
        assert 0 < lg.ok("convert_weight_to_kg", weight=text) <= 70
    assert "cannot read the weight" in lg.error("convert_weight_to_kg", weight="heavy")
    assert "cannot read the weight" in lg.error("convert_weight_to_kg", weight="5 stone")


def test_delivery_slots(fresh):
    slot = fresh.ok("find_delivery_slot", city="Paris", day="2025-06-20")
    assert slot >= "2025-06-20T08:00" and slot.endswith(":00")
    assert fresh.ok("find_delivery_slot", city="Paris", day="2020-01-01") > "2025-06-13T09:30"
    assert "can be booked up to" in fresh.error("find_delivery_slot", city="Paris", day="2026-01-01")
    assert "YYYY-MM-DD" in fresh.error("find_delivery_slot", city="Paris", day="soon")
    number = parcel(fresh, "in transit")
    reference, city = fresh.ok("book_delivery_slot", tracking_number=number, slot=slot)
    assert reference == "DLV-6001" and city == fresh.world.shipments[number]["destination"]
    assert fresh.world.state["delivery_bookings"][reference] == {"tracking_number": number, "slot": slot}
    assert "already delivered" in fresh.error("book_delivery_slot", tracking_number=parcel(fresh, "delivered"), slot=slot)
    # on the van, it arrives today: no slot next week (reading 29 #10)
    assert "out for delivery" in fresh.error("book_delivery_slot", tracking_number=parcel(fresh, "out for delivery"), slot=slot)
    assert "in the past" in fresh.error("book_delivery_slot", tracking_number=number, slot="2025-06-12T10:00")
    assert "between 08:00" in fresh.error("book_delivery_slot", tracking_number=number, slot="2025-06-20T21:00")
    assert "YYYY-MM-DDTHH:MM" in fresh.error("book_delivery_slot", tracking_number=number, slot="2025-06-20")


def test_route_distance_is_symmetric_haversine(lg):
    km, hours = lg.ok("get_shipping_route_distance", origin_city="London", destination_city="Paris")
    assert 330 < km < 360 and hours == round(km / 800 + 1, 1)
    assert lg.ok("get_shipping_route_distance", origin_city="Paris", destination_city="London") == (km, hours)
    assert lg.ok("get_shipping_route_distance", origin_city="Paris", destination_city="Paris") == (0.0, 0.0)
    assert "no service to" in lg.error("get_shipping_route_distance", origin_city="Paris", destination_city="Mordor")


def test_search_and_consolidation(fresh):
    hits = fresh.ok("search_shipments", query="customs hold")
    assert hits and all(fresh.world.shipments[h]["status"] == "customs hold" for h in hits)
    assert all(fresh.ok("search_shipments", query=q) for q in fresh.values("shipment_search_terms"))
    assert fresh.ok("search_shipments", query="zzz") == []
    assert "between 1 and 20" in fresh.error("search_shipments", query="atlas", max_results=0)
    consignment, weight, count = fresh.ok("consolidate_shipments", tracking_numbers=hits[:3])
    assert consignment == "CON-7001" and count == len(hits[:3])
    assert weight == round(sum(fresh.world.shipments[h]["weight_kg"] for h in hits[:3]), 1)
    delivered = parcel(fresh, "delivered")
    assert fresh.ok("consolidate_shipments", tracking_numbers=hits[:2] + [delivered])[2] == 2  # delivered ones left out
    assert "at least two" in fresh.error("consolidate_shipments", tracking_numbers=[hits[0], hits[0]])
    assert "unknown tracking number" in fresh.error("consolidate_shipments", tracking_numbers=[hits[0], "ZZ1"])
    for group in fresh.values("tracking_numbers"):
        assert fresh.ok("consolidate_shipments", tracking_numbers=group)


def test_worlds_are_deterministic():
    a, b = ToolboxSession(SLUG, world_seed=7), ToolboxSession(SLUG, world_seed=7)
    assert a.world.shipments == b.world.shipments and a.world.state == b.world.state
    assert ToolboxSession(SLUG, world_seed=8).world.shipments != a.world.shipments
    a.ok("create_shipment", origin_city="Seattle", destination_address="1 Dock Road, Tokyo", weight_kg=1.0, service="standard")
    assert b.world.state["created"] == {}


# --- what makes a logistics request sensible ------------------------------------------------


@pytest.fixture(scope="module")
def library(lg):
    from pathlib import Path

    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.config import resource_dir
    from factory.seeds.checks import library_pool

    return library_pool(lg.seeds), CheckContext(lg.seeds, load_policy(Path(resource_dir("validators"))))


def plausibility(lg, library, code):
    """The plausibility problems of a chain of logistics calls, executed in a fresh world."""
    return chain_problems(lg.seeds, code, ctx=library[1])


def going_to(session, city, statuses=("in transit", "out for delivery")):
    return next(t for t, row in sorted(session.world.shipments.items()) if row["destination"] == city and row["status"] in statuses)


def test_links_follow_roles(library):
    links = library[0].links
    # A parcel's destination is where its delivery slot is looked up; its carrier is who to call.
    assert ("get_shipment_details", "find_delivery_slot") in links
    assert [p for _, p in links[("get_shipment_details", "get_carrier_details")]] == ["carrier"]
    # A parcel's weight and origin are reported, never quoted again.
    assert [p for _, p in links[("get_shipment_details", "quote_shipping_rate")]] == ["destination_city"]
    # A parcel just created is only reported back: not tracked, returned or booked straight away.
    for consumer in ("get_tracking_status", "get_shipment_details", "book_delivery_slot", "create_return_label"):
        assert ("create_shipment", consumer) not in links
    # New shipments leave from the sender city; no other city is taken for one.
    assert [p for _, p in links[("verify_sender_address", "create_shipment")]] == ["origin_city"]
    assert ("get_warehouse_info", "create_shipment") in links  # sending stock to a warehouse
    assert ("get_tracking_status", "create_shipment") not in links
    # A quote's amount travels with its currency into a conversion.
    assert sorted(p for _, p in links[("quote_shipping_rate", "convert_currency_amount")]) == ["amount", "from_currency"]
    # Where a parcel has got to, or a warehouse's city, is no place to ask the weather or museums of.
    logistics = {name for name, spec in library[0].specs.items() if spec.toolbox == "logistics"}
    for (producer, consumer) in links:
        if producer in logistics and library[0].specs[consumer].toolbox != "logistics":
            assert consumer == "convert_currency_amount", (producer, consumer)


def test_sensible_chains_pass(lg, library):
    parcel_id = going_to(lg, "Paris")
    assert plausibility(lg, library, f'''
o, d, c, k = get_shipment_details(tracking_number="{parcel_id}")
s = find_delivery_slot(city=d, day="2025-06-20")
r, city = book_delivery_slot(tracking_number="{parcel_id}", slot=s)''') == []
    assert plausibility(lg, library, '''
kg = convert_weight_to_kg(weight="12 lb")
p, cur, days = quote_shipping_rate(origin_city="Berlin", destination_city="Tokyo", weight_kg=kg, service="express")''') == []
    assert plausibility(lg, library, '''
w, km = find_nearest_warehouse(city="Lyon")
city, address, phone = get_warehouse_info(warehouse_id=w)
n, eta = create_shipment(origin_city="Seattle", destination_address=address, weight_kg=4.0, service="standard")''') == []


def test_absurd_chains_are_rejected(lg, library):
    def rejected(code, rule):
        found = plausibility(lg, library, code)
        assert any(rule in p for p in found), found

    # A quote or a route from a city to itself.
    rejected('p, c, d = quote_shipping_rate(origin_city="Paris", destination_city="Paris", weight_kg=2.0, service="standard")',
             "distinct")
    # A parcel shipped to the city it leaves from.
    rejected('n, eta = create_shipment(origin_city="Seattle", destination_address="12 Dock Road, Seattle", weight_kg=2.0, '
             'service="standard")', "sent to the city it leaves from")
    # Delivering a parcel at a slot found in another city than the one it goes to.
    parcel_id = going_to(lg, "Paris")
    rejected(f'''
s = find_delivery_slot(city="Tokyo", day="2025-06-20")
r, city = book_delivery_slot(tracking_number="{parcel_id}", slot=s)''', "coherent")
    # A quote from one parcel's city to another thing's city: the two ends are about different things.
    rejected(f'''
c, a, ph = get_warehouse_info(warehouse_id="WH-BER")
o, d, car, k = get_shipment_details(tracking_number="{going_to(lg, "Tokyo")}")
p, cur, days = quote_shipping_rate(origin_city=c, destination_city=d, weight_kg=2.0, service="standard")''', "together")
    # Numbers and days a person would not use.
    rejected('b = add_postage_credit(amount=5000.0)', "within")
    rejected('s = find_delivery_slot(city="Paris", day="2025-09-01")', "around")
    # Verifying the address already verified changes nothing.
    rejected('c, k = verify_sender_address(address="500 Harbor Way, Seattle")', "no_op")


def test_condition_fixes_are_knowable_and_restore_the_condition(lg):
    conditions = lg.seed.toolbox.conditions
    for condition in conditions.values():
        for context in condition.context:
            stated = context.format(**{k: v if not isinstance(v, float) else f"{v:g}"
                                       for k, v in condition.fix_arguments.items()})
            for value in condition.fix_arguments.values():
                assert (f"{value:g}" if isinstance(value, float) else value) in stated
        assert condition.says and not set(condition.free)
    session = ToolboxSession(SLUG, state={"sender_address_verified": False, "postage_balance": 0.0})
    for name in ("sender_address_verified", "postage_funded"):
        condition = conditions[name]
        assert not condition.holds(session.world)
        session.ok(condition.fix_tool, **condition.fix_arguments)
        assert condition.holds(session.world)
    # The context names the address the account already sends from: the sender city does not change.
    assert session.values("city/sender_city") == ["Seattle"]


def test_literal_values_fit_the_calls_that_take_them(fresh):
    for number in fresh.values("tracking_number/open_parcel")[:20]:
        fresh.ok("book_delivery_slot", tracking_number=number, slot="2025-06-20T10:00")
    for number in fresh.values("tracking_number/delivered_parcel")[:10]:
        fresh.ok("create_return_label", tracking_number=number)
    assert set(fresh.values("tracking_number")) == set(fresh.values("tracking_number/open_parcel"))
    for address in fresh.values("address/recipient"):
        if "Seattle" not in address:
            fresh.ok("quote_shipping_rate", origin_city="Seattle",
                     destination_city=address.rsplit(", ", 1)[1], weight_kg=1.0, service="standard")
    for address in fresh.values("address/sender")[:5]:
        before = dict(fresh.world.state)
        fresh.ok("verify_sender_address", address=address)
        assert fresh.world.state["sender_address"] != before["sender_address"]
    for mention in fresh.values("inventory_product_mention"):
        fresh.ok("lookup_inventory_sku", product=mention)
    for slot in fresh.values("datetime/delivery_slot"):
        assert "2025-06-13" < slot < "2025-06-28" and slot.endswith(":00")


def test_facts_agree_with_what_the_tools_say(lg):
    facts = lg.seed.toolbox.facts
    for number in lg.values("tracking_number")[:30]:
        implied = facts["tracking_number"](lg.world, number)
        _, destination, carrier, _ = lg.ok("get_shipment_details", tracking_number=number)
        assert implied == {"city": destination, "carrier_name": carrier}
    for warehouse_id in lg.values("warehouse_id"):
        assert facts["warehouse_id"](lg.world, warehouse_id)["city"] == lg.ok("get_warehouse_info", warehouse_id=warehouse_id)[0]


def test_ids_and_weights_read_with_their_nouns_and_units(lg):
    written = lg.seed.toolbox.written
    assert written["tracking_number"] == "parcel {}" and written["warehouse_id"] == "warehouse {}"
    assert written["weight"] == "{} kg"
    assert "inventory_sku" in lg.seed.toolbox.internal


def test_goals_keep_pricing_and_sending_apart(lg):
    # A shipment leaves from the sender's own city while a quote names any route: one request
    # doing both priced one route and sent along another. A recipient never sends.
    sending = {"create_shipment", "verify_sender_address", "add_postage_credit"}
    for goal in lg.seed.toolbox.goals.values():
        assert not ("quote_shipping_rate" in goal.tools and "create_shipment" in goal.tools), goal.name
        assert goal.role != "recipient" or not sending & set(goal.tools), goal.name


def test_a_parcel_out_for_delivery_arrives_later_today_by_its_city_s_clock():
    """No "out for delivery" with an ETA five days away, or one already past in Seoul."""
    from factory.toolbox.gazetteer import local_time
    from factory.toolbox.user import USER

    seen = 0
    for world_seed in range(4):
        session = ToolboxSession("logistics", world_seed=world_seed)
        for row in session.world.shipments.values():
            if row["status"] == "out for delivery":
                here = local_time(row["destination"], USER.home_city, NOW).strftime("%Y-%m-%dT%H:%M")
                assert row["eta"][:10] == here[:10] and row["eta"] > here, (row, here)
                seen += 1
    assert seen


def test_a_parcel_in_transit_is_on_its_way(lg):
    """No Sydney-to-Los-Angeles parcel sits in Barcelona (reading 27 #38)."""
    moving = [row for row in lg.world.shipments.values() if row["status"] == "in transit"]
    assert moving
    for row in moving:
        detour = city_distance_km(row["origin"], row["current"]) + city_distance_km(row["current"], row["destination"])
        assert detour <= 1.25 * city_distance_km(row["origin"], row["destination"]) + 1e-6, row
