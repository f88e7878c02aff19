"""Logistics and Shipping: parcel tracking, shipment creation and rates, warehouses and their
stock, carriers, customs duty, weight units, delivery slots, route distances, consolidation and
return labels."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from factory.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    COUNTRIES,
    COUNTRY_BY_NAME,
    CURRENCY_BY_CODE,
    NOW,
    city_currency,
    city_distance_km,
    country_phrase,
    local_time,
    phone_number,
)
from factory.sense import around, distinct, sensible, together, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.user import USER

toolbox = Toolbox()

TrackingNumber = Annotated[str, Kind("tracking_number")]
# A request to book a delivery time is about a parcel still on its way; a return label is for a
# parcel that has arrived. These roles draw literal tracking numbers from the parcels each action
# can be about. A parcel just created is only ever reported back, never fed onward: tracking it or
# returning it straight away is no request a person makes.
OpenParcel = Annotated[str, Kind("tracking_number", role="open_parcel")]
DeliveredParcel = Annotated[str, Kind("tracking_number", role="delivered_parcel")]
NewParcel = Annotated[str, Kind("tracking_number", role="new_parcel")]
TrackingNumbers = Annotated[list[str], Kind("tracking_numbers")]
# A city on a shipping route: where a parcel has got to, where a warehouse stands, where a quote
# or a route starts, what a nearest warehouse is looked up for. These stay within logistics: the
# city a parcel has reached or a warehouse's city is no place to ask the weather or museums of.
City = Annotated[str, Kind("city", role="location")]
# Where a parcel goes: a parcel's destination feeds a quote, a route or a delivery slot there, and
# no other seed's city (the hottest city of a country, a contact's home) is taken for one.
DestinationCity = Annotated[str, Kind("city", role="destination")]
# The city new shipments leave from: the city of the account's verified sender address.
SenderCity = Annotated[str, Kind("city", role="sender_city")]
SenderCountry = Annotated[str, Kind("country", role="sender")]
Country = Annotated[str, Kind("country")]
# Where a parcel is delivered: an address the user names, or a warehouse's (sending stock in). A
# warehouse's address is no place to look up landmarks or coordinates of.
Address = Annotated[str, Kind("address", role="recipient")]
SenderAddress = Annotated[str, Kind("address", role="sender")]
WarehousePhone = Annotated[str, Kind("phone_number", role="warehouse")]
CarrierPhone = Annotated[str, Kind("phone_number", role="carrier")]
CarrierEmail = Annotated[str, Kind("email", role="carrier")]
Day = Annotated[str, Kind("date")]
RestockDay = Annotated[str, Kind("date", role="restock")]  # a warehouse's answer, not a day to plan around
Eta = Annotated[str, Kind("datetime", role="eta")]  # when a parcel arrives: reported, not fed onward
Slot = Annotated[str, Kind("datetime", role="delivery_slot")]
# A postage quote is an amount in the currency beside it (the finance seed converts such pairs).
Money = Annotated[float, Kind("money_amount")]
CurrencyCode = Annotated[str, Kind("currency_code", role="amount")]
Carrier = Annotated[str, Kind("carrier_name")]
WarehouseId = Annotated[str, Kind("warehouse_id")]
Sku = Annotated[str, Kind("inventory_sku")]
WeightKg = Annotated[float, Kind("weight")]  # kilograms
# A parcel's own weight is reported, not fed onward: nobody quotes "a parcel as heavy as that one".
ParcelWeight = Annotated[float, Kind("weight", role="parcel")]
# Where a parcel came from is reported, not a place to look things up in.
OriginCity = Annotated[str, Kind("city", role="origin")]
Service = Literal["standard", "express", "overnight"]

CARRIERS = {  # carrier → tracking prefix, phone, support email
    "SwiftPost": ("SP", "+1-206-555-0110", "support@swiftpost.example"),
    "Atlas Freight": ("AF", "+44-20-555-0142", "help@atlasfreight.example"),
    "BlueLine Express": ("BL", "+49-30-555-0178", "care@bluelineexpress.example"),
    "Meridian Cargo": ("MC", "+65-6-555-0190", "desk@meridiancargo.example"),
    "Polar Parcel": ("PP", "+46-8-555-0123", "service@polarparcel.example"),
    "Orbit Courier": ("OC", "+61-2-555-0166", "hello@orbitcourier.example"),
}
CREATED_CARRIER = "SwiftPost"  # shipments created through this account go with this carrier
WAREHOUSES = {  # warehouse id → city
    "WH-SEA": "Seattle", "WH-LAX": "Los Angeles", "WH-CHI": "Chicago", "WH-NYC": "New York", "WH-YYZ": "Toronto",
    "WH-MEX": "Mexico City", "WH-SAO": "Sao Paulo", "WH-LON": "London", "WH-BER": "Berlin", "WH-MAD": "Madrid",
    "WH-MIL": "Milan", "WH-DXB": "Dubai", "WH-BOM": "Mumbai", "WH-SIN": "Singapore", "WH-SHA": "Shanghai",
    "WH-TYO": "Tokyo", "WH-SYD": "Sydney", "WH-CPT": "Cape Town",
}
PRODUCTS = {  # SKU → product name, unit weight (kg)
    "SKU-30001": ("office chair", 14.0), "SKU-30002": ("standing desk", 32.0), "SKU-30003": ("laser printer", 11.0),
    "SKU-30004": ("espresso machine", 9.0), "SKU-30005": ("mountain bike", 15.0), "SKU-30006": ("camping stove", 2.1),
    "SKU-30007": ("air purifier", 7.0), "SKU-30008": ("robot vacuum", 4.0), "SKU-30009": ("gaming monitor", 6.5),
    "SKU-30010": ("mechanical keyboard", 1.2), "SKU-30011": ("camera drone", 1.8), "SKU-30012": ("electric kettle", 1.1),
    "SKU-30013": ("countertop blender", 3.5), "SKU-30014": ("microwave oven", 12.0), "SKU-30015": ("dinner set", 8.0),
    "SKU-30016": ("garden hose", 3.0), "SKU-30017": ("cordless drill", 2.0), "SKU-30018": ("rolling tool chest", 22.0),
    "SKU-30019": ("car battery", 18.0), "SKU-30020": ("winter tyre set", 40.0), "SKU-30021": ("baby stroller", 9.0),
    "SKU-30022": ("folding treadmill", 45.0), "SKU-30023": ("dumbbell set", 25.0), "SKU-30024": ("dome tent", 4.5),
    "SKU-30025": ("sleeping bag", 1.6), "SKU-30026": ("smart thermostat", 0.4), "SKU-30027": ("security camera", 0.6),
    "SKU-30028": ("solar panel", 19.0), "SKU-30029": ("oak bookshelf", 27.0), "SKU-30030": ("memory foam mattress", 30.0),
}
DUTY = {  # destination country → duty rate, duty-free threshold (US dollars)
    "USA": (0.05, 800), "Canada": (0.08, 150), "Mexico": (0.16, 50), "Brazil": (0.6, 50), "Argentina": (0.5, 0),
    "United Kingdom": (0.04, 160), "France": (0.042, 160), "Germany": (0.042, 160), "Spain": (0.042, 160),
    "Italy": (0.042, 160), "Netherlands": (0.042, 160), "Switzerland": (0.025, 60), "Sweden": (0.042, 160),
    "Egypt": (0.2, 0), "Kenya": (0.25, 0), "South Africa": (0.2, 30), "United Arab Emirates": (0.05, 270),
    "India": (0.2, 0), "Singapore": (0.0, 300), "China": (0.13, 7), "Japan": (0.05, 90), "South Korea": (0.08, 150),
    "Australia": (0.05, 650), "New Zealand": (0.05, 600),
}
STATUSES = (("label created", 0.10), ("in transit", 0.53), ("out for delivery", 0.12),
            ("customs hold", 0.10), ("delivered", 0.15))
SERVICE_FACTOR = {"standard": 1.0, "express": 1.6, "overnight": 2.5}
MAX_WEIGHT_KG = 70.0
SLOT_OPEN, SLOT_CLOSE = 8, 20  # delivery slots run from 08:00 to 19:30
SLOT_DAYS = 90
LAST_SLOT_DAY = NOW.date() + timedelta(days=SLOT_DAYS - 1)
BUSY_SHARE = 0.35  # share of delivery slots already full in a city
DEFAULT_SENDER = "500 Harbor Way, Seattle"
UNITS_TO_KG = {"kg": 1.0, "kgs": 1.0, "kilo": 1.0, "kilos": 1.0, "kilogram": 1.0, "kilograms": 1.0, "g": 0.001,
               "gram": 0.001, "grams": 0.001, "lb": 0.45359237, "lbs": 0.45359237, "pound": 0.45359237,
               "pounds": 0.45359237, "oz": 0.028349523, "ounce": 0.028349523, "ounces": 0.028349523}
# Weights as people write them in other units: "0.8 kg" turned into kilograms is no conversion.
WEIGHT_FORMS = ("12 lb", "40 oz", "750 g", "2 lb 8 oz", "7 pounds", "1.5 lbs", "25 lb", "500 grams", "64 ounces",
                "30 lbs", "1200 g", "18 oz")
STREETS = ("Dock Road", "Freight Avenue", "Commerce Way", "Harbour Street", "Market Street", "Station Road",
           "Industrial Park Drive", "Canal Street", "Airport Road", "Terminal Lane")
_CITY_PATTERN = re.compile(r"\b(" + "|".join(sorted((re.escape(c.name) for c in CITIES), key=len, reverse=True)) + r")\b",
                           re.IGNORECASE)


@dataclass
class ShippingWorld(World):
    shipments: dict[str, dict] = field(default_factory=dict)  # tracking number → route, carrier, weight, status, eta
    warehouses: dict[str, dict] = field(default_factory=dict)  # warehouse id → city, address, phone
    on_time: dict[str, float] = field(default_factory=dict)  # carrier → on-time delivery rate (percent)
    salt: str = ""

    def figure(self, *key: object) -> float:
        """A reproducible number in [0, 1) for a (table, key...) cell of this world."""
        return random.Random(":".join(map(str, (self.salt, *key)))).random()

    def shipment(self, tracking_number: str) -> dict:
        key = tracking_number.strip().upper()
        row = self.shipments.get(key) or self.state.get("created", {}).get(key)
        require(row is not None, f"unknown tracking number {tracking_number!r}; tracking numbers look like 'SP123456789'")
        return row


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


@toolbox.world
def build_world(rng: random.Random) -> ShippingWorld:
    names = [c.name for c in CITIES]
    shipments: dict[str, dict] = {}
    while len(shipments) < 150:
        carrier = rng.choice(sorted(CARRIERS))
        number = f"{CARRIERS[carrier][0]}{rng.randint(100000000, 999999999)}"
        origin, destination = rng.sample(names, 2)
        status = rng.choices([s for s, _ in STATUSES], weights=[p for _, p in STATUSES])[0]
        here = local_time(destination, USER.home_city, NOW)  # a delivery time is the destination's clock
        if status == "out for delivery" and not 8 <= here.hour <= 15:
            status = "in transit"  # no van is out at night there
        if status == "delivered":
            eta = datetime(here.year, here.month, here.day, rng.randint(9, 19)) - timedelta(days=rng.randint(1, 6))
        else:
            eta = datetime(here.year, here.month, here.day, rng.randint(9, 19)) + timedelta(
                days=rng.randint(1, 7) + (3 if status == "customs hold" else 0))
            if status == "out for delivery":  # on the van: it arrives later today
                eta = here.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1 + eta.hour % 3)
        # A parcel in transit is somewhere on its way: no Sydney-to-Los-Angeles parcel in Barcelona.
        direct = city_distance_km(origin, destination)
        on_the_way = [c for c in names if city_distance_km(origin, c) + city_distance_km(c, destination) <= 1.25 * direct]
        current = {"label created": origin, "in transit": rng.choice([origin, rng.choice(on_the_way), destination]),
                   "out for delivery": destination, "customs hold": destination, "delivered": destination}[status]
        shipments[number] = {
            "carrier": carrier, "origin": origin, "destination": destination, "status": status, "current": current,
            "eta": _stamp(eta), "weight_kg": round(rng.uniform(0.3, 45.0), 1),
            "service": rng.choice(sorted(SERVICE_FACTOR)),
        }
    warehouses = {}
    for warehouse_id, city in WAREHOUSES.items():
        warehouses[warehouse_id] = {
            "city": city,
            "address": f"{rng.randint(1, 900)} {rng.choice(STREETS)}, {city}",
            "phone": phone_number(rng, city),
        }
    on_time = {carrier: round(rng.uniform(84.0, 98.5), 1) for carrier in sorted(CARRIERS)}
    built = ShippingWorld(shipments=shipments, warehouses=warehouses, on_time=on_time, salt=str(rng.random()))
    built.state = {
        "sender_address_verified": True, "sender_address": DEFAULT_SENDER, "postage_balance": 5000.0,
        "created": {}, "delivery_bookings": {}, "consolidations": {}, "return_labels": {},
    }
    return built


# --- helpers -----------------------------------------------------------------------------


def _w() -> ShippingWorld:
    return world(ShippingWorld)


def _city(city: str) -> str:
    require(city in CITY_BY_NAME, f"no service to {city!r}; served cities: {', '.join(sorted(CITY_BY_NAME))}")
    return city


def _city_in(address: str) -> str:
    match = _CITY_PATTERN.search(address)
    require(match is not None and bool(re.match(r"\s*\d", address)),
            f"address {address!r} is not deliverable: give a street number, street and a served city, "
            "e.g. '12 Market Street, Paris'")
    return next(c.name for c in CITIES if c.name.lower() == match.group(1).lower())


def _weight(kg: float) -> float:
    require(0 < kg <= MAX_WEIGHT_KG, f"weight must be above 0 and at most {MAX_WEIGHT_KG:g} kg; convert other units to kg first")
    return kg


def _price_usd(origin: str, destination: str, kg: float, service: str) -> float:
    distance = city_distance_km(origin, destination)
    return round((5.0 + 1.6 * kg) * min(1.0 + distance / 5000.0, 3.0) * SERVICE_FACTOR[service], 2)


def _transit_days(origin: str, destination: str, service: str) -> int:
    distance = city_distance_km(origin, destination)
    if service == "standard":
        return 2 + math.ceil(distance / 2000)
    if service == "express":
        return 1 + math.ceil(distance / 5000)
    return 1 + (distance > 3000)


def _leaves_its_city(origin_city: str, destination_address: str) -> bool:
    """Whether a parcel goes to another city than the one it is sent from (an unreadable address
    is the tool's to reject)."""
    match = _CITY_PATTERN.search(str(destination_address))
    return match is None or match.group(1).casefold() != str(origin_city).casefold()


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


def _slot_busy(w: ShippingWorld, city: str, moment: datetime) -> bool:
    return w.figure("slot", city, _stamp(moment)) < BUSY_SHARE


# --- value generators ----------------------------------------------------------------------


@toolbox.values_for("tracking_number")
def _tracking_numbers(w: ShippingWorld) -> list[str]:
    """Parcels people ask about: the ones still on their way, not yet on the van. A request that
    looks a parcel up and then books its delivery names one parcel, so both draw from the same
    parcels."""
    return _open_parcels(w)


@toolbox.values_for("tracking_number/open_parcel")
def _open_parcels(w: ShippingWorld) -> list[str]:
    """Parcels a delivery time can still be booked for: not yet delivered nor on the van."""
    return sorted(t for t, row in w.shipments.items() if row["status"] not in ("delivered", "out for delivery"))


@toolbox.values_for("tracking_number/delivered_parcel")
def _delivered_parcels(w: ShippingWorld) -> list[str]:
    """Parcels that have arrived: the ones a person sends back."""
    return sorted(t for t, row in w.shipments.items() if row["status"] == "delivered")


@toolbox.values_for("tracking_numbers")
def _tracking_groups(w: ShippingWorld) -> list[list[str]]:
    """Parcels on their way that share a carrier and a destination: the ones worth billing together."""
    by_route: dict[tuple[str, str], list[str]] = {}
    for number, row in sorted(w.shipments.items()):
        if row["status"] != "delivered":
            by_route.setdefault((row["carrier"], row["destination"]), []).append(number)
    groups = [numbers[:3] for _, numbers in sorted(by_route.items()) if len(numbers) >= 2]
    if len(groups) < 5:  # a small world: parcels of one carrier, whatever their destination
        by_carrier: dict[str, list[str]] = {}
        for number, row in sorted(w.shipments.items()):
            if row["status"] != "delivered":
                by_carrier.setdefault(row["carrier"], []).append(number)
        groups += [numbers[i:i + 2] for numbers in by_carrier.values() for i in range(0, len(numbers) - 1, 6)]
    return groups


@toolbox.values_for("city")
def _cities(w: ShippingWorld) -> list[str]:
    return sorted(CITY_BY_NAME)


@toolbox.values_for("city/sender_city")
def _sender_cities(w: ShippingWorld) -> list[str]:
    """New shipments leave from the city of the account's sender address."""
    return [_city_in(w.state.get("sender_address", DEFAULT_SENDER))]


@toolbox.values_for("country")
def _countries(w: ShippingWorld) -> list[str]:
    return [c.name for c in COUNTRIES if c.name in DUTY]


@toolbox.values_for("address/recipient")
def _addresses(w: ShippingWorld) -> list[str]:
    """Recipients' street addresses, one in every served city."""
    return [f"{10 + 7 * i} {STREETS[i % len(STREETS)]}, {c.name}" for i, c in enumerate(CITIES)]


@toolbox.values_for("address/sender")
def _sender_addresses(w: ShippingWorld) -> list[str]:
    """Addresses a business could move its sending to, other than the one on file."""
    current = w.state.get("sender_address", DEFAULT_SENDER)
    return [a for a in (f"{3 + 11 * i} {STREETS[(i + 3) % len(STREETS)]}, {c.name}" for i, c in enumerate(CITIES)) if a != current]


@toolbox.values_for("weight")
def _weights(w: ShippingWorld) -> list[float]:
    return [0.5, 1.2, 2.5, 4.0, 7.5, 12.0, 18.0, 25.0]


@toolbox.values_for("weight_text")
def _weight_texts(w: ShippingWorld) -> list[str]:
    return list(WEIGHT_FORMS)


@toolbox.values_for("declared_value_usd")
def _declared(w: ShippingWorld) -> list[float]:
    return [45.0, 120.0, 250.0, 600.0, 1500.0, 4200.0]


@toolbox.values_for("credit_amount")
def _credits(w: ShippingWorld) -> list[float]:
    return [50.0, 100.0, 250.0, 500.0]


@toolbox.values_for("carrier_name")
def _carriers(w: ShippingWorld) -> list[str]:
    return sorted(CARRIERS)


@toolbox.values_for("warehouse_id")
def _warehouse_ids(w: ShippingWorld) -> list[str]:
    return sorted(WAREHOUSES)


@toolbox.values_for("inventory_sku")
def _skus(w: ShippingWorld) -> list[str]:
    return sorted(PRODUCTS)


@toolbox.values_for("inventory_product_mention")
def _product_mentions(w: ShippingWorld) -> list[str]:
    """Products as people ask for stock of them: in the plural where adding an s makes one."""
    return [name if name.endswith(("s", "sh", "ch", "f", "y", "x")) else f"{name}s" for name, _ in PRODUCTS.values()]


@toolbox.values_for("date")
def _dates(w: ShippingWorld) -> list[str]:
    return [(NOW.date() + timedelta(days=k)).isoformat() for k in range(1, 15)]


@toolbox.values_for("datetime/delivery_slot")
def _slots(w: ShippingWorld) -> list[str]:
    """Delivery times a person would pick: on the hour within the next two weeks."""
    return [f"{(NOW.date() + timedelta(days=k)).isoformat()}T{h:02d}:00" for k in range(1, 15, 2) for h in range(9, 19, 3)]


@toolbox.values_for("shipment_search_terms")
def _search_terms(w: ShippingWorld) -> list[str]:
    terms = set()
    for row in w.shipments.values():
        terms.add(f"{row['carrier'].split()[0].lower()} {row['destination'].lower()}")
        terms.add(f"{row['status']} {row['current'].lower()}")
    return sorted(terms)[::3]


toolbox.internal_kinds("inventory_sku")  # people name products; the SKU is the warehouse system's
toolbox.written_as("tracking_number", "parcel {}")
toolbox.written_as("tracking_numbers", "parcels {}")
toolbox.written_as("warehouse_id", "warehouse {}")
toolbox.written_as("inventory_sku", "item {}")
# A product named in the singular (one no plural s makes) takes an article: "is there stock of the
# car battery", not "stock of car battery" (reading 68 #16).
PRODUCT_NAMES = frozenset(name for name, _ in PRODUCTS.values())
toolbox.written_as("inventory_product_mention", lambda mention: f"the {mention}" if mention in PRODUCT_NAMES else mention)
toolbox.written_as("weight", "{} kg")
toolbox.written_as("declared_value_usd", "{} US dollars")
toolbox.written_as("credit_amount", "{} US dollars")
toolbox.written_as("country", country_phrase)


@toolbox.facts_about("tracking_number")
def _parcel_facts(w: ShippingWorld, tracking_number: str) -> dict:
    """A parcel named by its number goes to one city with one carrier: a request about it names
    that city and that carrier, not others."""
    row = w.shipments[tracking_number.strip().upper()]
    return {"city": row["destination"], "carrier_name": row["carrier"]}


@toolbox.facts_about("warehouse_id")
def _warehouse_facts(w: ShippingWorld, warehouse_id: str) -> dict:
    return {"city": WAREHOUSES[warehouse_id]}


# --- tools ---------------------------------------------------------------------------------


@toolbox.tool(
    asks=(
        "where is {tracking_number} now, what's its status and when is it expected?",
        "track {tracking_number}: its latest status, the city it is in and the expected delivery time",
        "I'm waiting for {tracking_number}. Where is it, what's its status, and when should it arrive?",
        "what's the latest on {tracking_number}? I need its status, the city it's in and the ETA.",
        "check where {tracking_number} has got to, what its status is and when it should be delivered",
        "has {tracking_number} arrived yet? Tell me its status, the city it's in and the expected delivery time.",
        "give me a tracking update for {tracking_number}: status, current city and estimated arrival",
        "trace {tracking_number} and report its current status, the city it was last seen in and the delivery estimate",
        "when will {tracking_number} get here, which city is it in at the moment, and what does its status say?",
        "any news on {tracking_number}? Give me its status, its current city and its expected arrival time.",
    ),
    gives={
        "current_city": (
            "the city where {tracking_number} is now",
            "the city {tracking_number} has reached",
            "the city where {tracking_number} currently is",
            "the current location of {tracking_number}",
            "the city where {tracking_number} was last scanned",
            "the city {tracking_number} is sitting in right now",
            "the city the tracking for {tracking_number} shows",
            "the city {tracking_number} made it to most recently",
        ),
    },
)
def get_tracking_status(tracking_number: TrackingNumber) -> tuple[str, City, Eta]:
    """Track a parcel: its latest status, where it is now and when it is expected.

    Args:
        tracking_number: Carrier tracking number, e.g. "SP123456789".

    Returns:
        status: the parcel's latest status (label created, in transit, out for delivery, customs hold or delivered).
        current_city: the city where the parcel is now.
        eta: the expected delivery time (YYYY-MM-DDTHH:MM; the delivery time once delivered).
    """
    row = _w().shipment(tracking_number)
    return row["status"], row["current"], row["eta"]


@toolbox.tool(
    asks=(
        "where was {tracking_number} sent from and where is it going, who carries it and how heavy is it?",
        "get the origin, destination, carrier and weight of {tracking_number}",
        "tell me about {tracking_number}: where it comes from, where it goes, its carrier and its weight",
        "which carrier has {tracking_number}, how much does it weigh, and what are its origin and destination cities?",
        "look up the shipment record of {tracking_number}: origin, destination, carrier and weight",
        "I have a question about {tracking_number}. Where was it shipped from, where is it headed, who's the carrier and what does it weigh?",
        "what are the from and to cities of {tracking_number}, and what's its carrier and weight?",
        "find out who is shipping {tracking_number}, from where to where, and how heavy it is",
        "pull the details on {tracking_number}: origin city, destination city, carrier and weight in kilograms",
        "where is {tracking_number} coming from and going to, which carrier has it, and what does it weigh?",
        "give me the origin and destination cities of {tracking_number}, its carrier and its weight",
        "what's the route of {tracking_number}, who is carrying it, and how many kilos is it?",
        "check the shipping record of {tracking_number} for the origin, the destination, the carrier and the weight",
        "which cities is {tracking_number} travelling between, with which carrier, and how heavy is it?",
        "find out the origin, destination, carrier and weight on file for {tracking_number}",
    ),
    gives={
        "destination_city": (
            "the city {tracking_number} is going to",
            "the destination of {tracking_number}",
            "the city {tracking_number} is on its way to",
            "the destination city of {tracking_number}",
            "the city where {tracking_number} will be delivered",
            "the city on the delivery label of {tracking_number}",
            "the delivery city of {tracking_number}",
            "the city at the receiving end of {tracking_number}",
            "the city {tracking_number} is headed for",
            "the city {tracking_number} is addressed to",
            "the city {tracking_number} is bound for",
            "the final destination of {tracking_number}",
            "the city {tracking_number} is being shipped to",
            "the city {tracking_number} will end up in",
        ),
        "carrier": (
            "the carrier of {tracking_number}",
            "the company carrying {tracking_number}",
            "the courier handling {tracking_number}",
            "the carrier {tracking_number} was shipped with",
            "the delivery company for {tracking_number}",
            "the carrier that has {tracking_number}",
            "the shipping company for {tracking_number}",
            "the courier delivering {tracking_number}",
            "the carrier responsible for {tracking_number}",
            "whichever carrier is moving {tracking_number}",
            "the logistics company handling {tracking_number}",
            "the carrier shipping {tracking_number}",
            "the courier that picked up {tracking_number}",
            "the transport company moving {tracking_number}",
            "the parcel service carrying {tracking_number}",
            "the carrier moving {tracking_number}",
            "the courier in charge of {tracking_number}",
            "the carrier handling the delivery of {tracking_number}",
            "the company shipping {tracking_number}",
            "the carrier {tracking_number} is travelling with",
            "the courier company for {tracking_number}",
        ),
    },
)
def get_shipment_details(tracking_number: TrackingNumber) -> tuple[OriginCity, DestinationCity, Carrier, ParcelWeight]:
    """Get where a shipment comes from and goes to, its carrier and its weight.

    Args:
        tracking_number: Carrier tracking number, e.g. "SP123456789".

    Returns:
        origin_city: the shipment's origin city.
        destination_city: the shipment's destination city.
        carrier: the shipment's carrier.
        weight_kg: the shipment's weight (kilograms).
    """
    row = _w().shipment(tracking_number)
    return row["origin"], row["destination"], row["carrier"], row["weight_kg"]


@toolbox.tool(
    asks=(
        "ship a parcel of {weight_kg} from {origin_city} to {destination_address} by {service} service, and give me the tracking number and the expected delivery time",
        "send a parcel of {weight_kg} from {origin_city} to {destination_address} with {service} shipping; what's the tracking number and when will it arrive?",
        "I need to send a parcel of {weight_kg} from {origin_city} to {destination_address}. Send it by {service} service and tell me its tracking number and delivery estimate.",
        "book {service} shipping for a package of {weight_kg} from {origin_city} to {destination_address}. I need the tracking number and the delivery estimate.",
        "create a shipment from {origin_city} to {destination_address}: one parcel, {weight_kg}, {service} service. What's the tracking number and the ETA?",
        "I have a parcel of {weight_kg} to get from {origin_city} to {destination_address}. Send it with {service} service and give me the tracking number and expected arrival.",
        "arrange {service} delivery of a box of {weight_kg} from {origin_city} to {destination_address}; what's the tracking number, and when is it due?",
        "post a parcel of {weight_kg} to {destination_address} from {origin_city} with {service} service, and tell me the tracking number and the ETA",
        "ship a box of {weight_kg} from {origin_city} to {destination_address} using {service} service. What tracking number does it get, and when will it be delivered?",
        "I'm sending a parcel of {weight_kg} to {destination_address} from {origin_city}. Book it with {service} service. What's the tracking number, and when will it arrive?",
    ),
    sense=(within("weight_kg", 0.1, MAX_WEIGHT_KG),
           sensible("the parcel is sent to the city it leaves from", ("origin_city", "destination_address"),
                    lambda a: _leaves_its_city(a["origin_city"], a["destination_address"]))),
    requires=("sender_address_verified", "postage_funded"),
    tags=("state_change",),
)
def create_shipment(origin_city: SenderCity, destination_address: Address, weight_kg: WeightKg,
                    service: Service) -> tuple[NewParcel, Eta]:
    """Create a shipment from the account's postage balance and get its tracking number.

    Args:
        origin_city: City the parcel is sent from, e.g. "Berlin".
        destination_address: Recipient street address including a served city, e.g. "12 Market Street, Paris".
        weight_kg: Parcel weight in kilograms (up to 70).
        service: Service level: standard, express or overnight.

    Returns:
        tracking_number: the new shipment (its tracking number).
        eta: the new shipment's expected delivery time (YYYY-MM-DDTHH:MM).
    """
    w = _w()
    _city(origin_city)
    destination = _city_in(destination_address)
    _weight(weight_kg)
    require(w.state.get("sender_address_verified", False),
            "the sender address on the account is not verified: verify the sender address first")
    price = _price_usd(origin_city, destination, weight_kg, service)
    balance = w.state.get("postage_balance", 0.0)
    require(balance >= price, f"postage balance {balance:.2f} USD does not cover the {price:.2f} USD postage: add postage credit first")
    w.state["postage_balance"] = round(balance - price, 2)
    created = w.state.setdefault("created", {})
    number = f"{CARRIERS[CREATED_CARRIER][0]}9{len(created) + 1:08d}"
    arrival = datetime(NOW.year, NOW.month, NOW.day, 18) + timedelta(days=_transit_days(origin_city, destination, service))
    created[number] = {
        "carrier": CREATED_CARRIER, "origin": origin_city, "destination": destination, "status": "label created",
        "current": origin_city, "eta": _stamp(arrival), "weight_kg": weight_kg, "service": service,
    }
    return number, _stamp(arrival)


@toolbox.tool(
    asks=(
        "how much would it cost to send a parcel of {weight_kg} from {origin_city} to {destination_city} by {service} service, and how many days would it take?",
        "quote {service} shipping for a parcel of {weight_kg} from {origin_city} to {destination_city}, with the transit time",
        "I want to ship a parcel of {weight_kg} from {origin_city} to {destination_city}. What's the {service} rate, and how long will it take?",
        "what's the {service} postage on a parcel of {weight_kg} from {origin_city} to {destination_city}, and how many days is it in transit?",
        "get me a quote to ship a package of {weight_kg} from {origin_city} to {destination_city} with {service} service, including the transit time",
        "how much is {service} postage for a box of {weight_kg} going from {origin_city} to {destination_city}, and how long does it take?",
        "I'm pricing up a parcel of {weight_kg} from {origin_city} to {destination_city}. What would {service} service cost, and how many days would it take?",
        "quote the cost and the delivery time of sending a parcel of {weight_kg} from {origin_city} to {destination_city} by {service} service",
        "what would I pay to send a shipment of {weight_kg} from {origin_city} to {destination_city} by {service} service, and how long would it be in transit?",
        "what's the going {service} rate from {origin_city} to {destination_city} for a parcel of {weight_kg}, and how many days is it in transit?",
        "a customer in {destination_city} wants a parcel of {weight_kg} sent from {origin_city} by {service} service. What will that cost, and how many days will it take?",
        "give me the {service} price for moving a parcel of {weight_kg} from {origin_city} to {destination_city}, and the days in transit",
    ),
    gives={
        "price, currency": (
            "the {service} postage for a parcel of {weight_kg} from {origin_city} to {destination_city}",
            "the {service} shipping cost for a package of {weight_kg} from {origin_city} to {destination_city}",
            "the quoted {service} rate for a shipment of {weight_kg} from {origin_city} to {destination_city}",
            "the {service} shipping charge for a box of {weight_kg} from {origin_city} to {destination_city}",
            "the cost of shipping a parcel of {weight_kg} from {origin_city} to {destination_city} by {service} service",
            "the price of {service} delivery for a parcel of {weight_kg} from {origin_city} to {destination_city}",
            "the {service} fee quoted for sending {weight_kg} from {origin_city} to {destination_city}",
            "the {service}-service postage for a parcel of {weight_kg} from {origin_city} to {destination_city}",
        ),
    },
    sense=(distinct("origin_city", "destination_city"), together("origin_city", "destination_city"),
           within("weight_kg", 0.1, MAX_WEIGHT_KG)),
)
def quote_shipping_rate(origin_city: City, destination_city: DestinationCity, weight_kg: WeightKg,
                        service: Service) -> tuple[Money, CurrencyCode, int]:
    """Quote the postage and transit time of a parcel between two cities.

    Args:
        origin_city: City the parcel is sent from, e.g. "Berlin".
        destination_city: City the parcel goes to, e.g. "Tokyo".
        weight_kg: Parcel weight in kilograms (up to 70).
        service: Service level: standard, express or overnight.

    Returns:
        price: the postage (in the origin country's currency).
        currency: the postage currency.
        transit_days: the days in transit.
    """
    _city(origin_city)
    _city(destination_city)
    _weight(weight_kg)
    currency = city_currency(origin_city)
    price = _price_usd(origin_city, destination_city, weight_kg, service) * CURRENCY_BY_CODE[currency].per_usd
    return round(price, 2), currency, _transit_days(origin_city, destination_city, service)


@toolbox.tool(
    asks=(
        "how many units of {sku} does {warehouse_id} have, and when is its next restock?",
        "check the stock of {sku} at {warehouse_id} and the date of the next restock",
        "is there stock of {sku} at {warehouse_id}? Tell me the units on hand and when the next restock arrives.",
        "how many units of {sku} does {warehouse_id} have in stock, and when's the next restock?",
        "look up the stock level of {sku} at {warehouse_id} and the next restock date",
        "I need {sku} from {warehouse_id}. How many units are on hand, and when do they restock?",
        "what's the inventory of {sku} at {warehouse_id}, and when is more coming in?",
        "count the units of {sku} on hand at {warehouse_id} and tell me when the next restock delivery is due",
        "how much stock of {sku} is sitting at {warehouse_id}, and when will it next be replenished?",
        "at {warehouse_id}, how many units of {sku} are there, and when's the next restock?",
        "what's the stock of {sku} at {warehouse_id}, and when does it next get restocked?",
        "how many units of {sku} sit at {warehouse_id}, and what's the next restock date?",
        "tell me the units of {sku} held at {warehouse_id} and when the next restock is scheduled",
        "find how many units of {sku} are on hand at {warehouse_id} and the date more arrives",
        "check {warehouse_id} for {sku}: units available and the next restock date",
    ),
)
def get_warehouse_stock(sku: Sku, warehouse_id: WarehouseId) -> tuple[int, RestockDay]:
    """Get the units of a SKU on hand at a warehouse and the date of its next restock.

    Args:
        sku: Inventory SKU, e.g. "SKU-30001".
        warehouse_id: Warehouse id, e.g. "WH-BER".

    Returns:
        units: the units on hand.
        next_restock: the date of the next restock delivery (YYYY-MM-DD).
    """
    w = _w()
    key = sku.strip().upper()
    require(key in PRODUCTS, f"unknown SKU {sku!r}; look the product up by name to get its SKU")
    require(warehouse_id in WAREHOUSES, f"unknown warehouse {warehouse_id!r}: get warehouse ids from the warehouse nearest a city")
    share = w.figure("stock", key, warehouse_id)
    units = 0 if share < 0.15 else int(400 * share)
    restock = NOW.date() + timedelta(days=2 + int(25 * w.figure("restock", key, warehouse_id)))
    return units, restock.isoformat()


@toolbox.tool(
    asks=(
        "which warehouse is closest to {city}, and how far away is it?",
        "find the warehouse nearest to {city} and its distance from there",
        "I need stock near {city}. Which warehouse is closest, and how many kilometres away is it?",
        "what's the closest warehouse to {city}, and how many kilometres away is it?",
        "find me the nearest warehouse to {city} and tell me how far it is",
        "which of your warehouses is nearest to {city}, and at what distance?",
        "I need a warehouse close to {city}. Which one is nearest, and how far away is it?",
        "locate the warehouse closest to {city} and tell me how far away it is",
        "how far is the nearest warehouse from {city}, and which one is it?",
        "where's your nearest warehouse to {city}, and how many km is it from there?",
        "is there a warehouse near {city}? Tell me the closest one and its distance.",
    ),
    gives={
        "warehouse_id": (
            "the warehouse nearest to {city}",
            "the closest warehouse to {city}",
            "the warehouse closest to {city}",
            "the nearest warehouse to {city}",
            "whichever warehouse is nearest to {city}",
            "the warehouse that lies closest to {city}",
            "the warehouse with the shortest haul to {city}",
            "the nearest of our warehouses to {city}",
        ),
    },
)
def find_nearest_warehouse(city: City) -> tuple[WarehouseId, float]:
    """Find the warehouse closest to a city, by great-circle distance.

    Args:
        city: City name, e.g. "Lyon".

    Returns:
        warehouse_id: the nearest warehouse.
        distance_km: the distance from the city to that warehouse (kilometres).
    """
    _city(city)
    distance, warehouse_id = min((city_distance_km(city, c), w) for w, c in sorted(WAREHOUSES.items()))
    return warehouse_id, round(distance, 1)


@toolbox.tool(
    asks=(
        "where is {warehouse_id}, and how do I reach it by phone? Give me its city, street address and phone number.",
        "get the city, address and phone number of {warehouse_id}",
        "what are the street address and phone number of {warehouse_id}, and which city is it in?",
        "give me the address, phone number and city of {warehouse_id}",
        "I need to visit {warehouse_id}. What's its street address, which city is it in, and what's the phone number?",
        "look up the contact details of {warehouse_id}: city, street address and phone",
        "how can I contact {warehouse_id}, and where exactly is it? I need the phone number, the address and the city.",
        "which city is home to {warehouse_id}? Give me its street address and phone number as well.",
        "find the street address, city and phone line of {warehouse_id}",
        "I'm driving over to {warehouse_id}. Which city and street address is it at, and what number can I call?",
        "a driver needs directions and a number for {warehouse_id}: what city, what street address, and which phone line?",
        "for the shipping label I need the full street address of {warehouse_id}, its city and a contact phone.",
    ),
    gives={
        "city": (
            "the city of {warehouse_id}",
            "the city where {warehouse_id} is located",
            "the city where {warehouse_id} stands",
            "the city that houses {warehouse_id}",
        ),
        "address": (
            "the street address of {warehouse_id}",
            "the address of {warehouse_id}",
            "the street address on file for {warehouse_id}",
            "the delivery address of {warehouse_id}",
        ),
    },
)
def get_warehouse_info(warehouse_id: WarehouseId) -> tuple[City, Address, WarehousePhone]:
    """Get the city, street address and phone number of a warehouse.

    Args:
        warehouse_id: Warehouse id, e.g. "WH-SIN".

    Returns:
        city: the warehouse's city.
        address: the warehouse's street address.
        phone: the warehouse's phone number.
    """
    w = _w()
    require(warehouse_id in w.warehouses, f"unknown warehouse {warehouse_id!r}; find the nearest warehouse to a city first")
    row = w.warehouses[warehouse_id]
    return row["city"], row["address"], row["phone"]


@toolbox.tool(
    asks=(
        "how do I reach {carrier}, and how reliable are they? Give me their support phone, email and on-time rate.",
        "get the support phone number, email and on-time delivery rate of {carrier}",
        "what are the support phone and email of {carrier}, and what share of its parcels arrive on time?",
        "how reliable is {carrier}? Tell me their on-time rate, plus their support phone number and email.",
        "look up the customer-service phone and email of {carrier} and its on-time delivery percentage",
        "I want to complain to {carrier}. What are their support phone and email, and how often do they deliver on time?",
        "get me the contact details (phone and email) and the on-time record of {carrier}",
        "what percentage of deliveries does {carrier} make on time, and how do I reach its support by phone or email?",
        "find the support line, the support email and the on-time percentage for {carrier}",
        "what's the support phone and email of {carrier}, and how often do they deliver on time?",
        "tell me how to contact {carrier} by phone or email, and give me their on-time rate",
        "how good is {carrier} at delivering on time? Include its support phone and email.",
        "find the phone number, the email address and the on-time record of {carrier}",
        "I need to talk to {carrier}. What's their support number and email, and what's their on-time delivery rate?",
        "pull up the carrier profile of {carrier}: support phone, support email and on-time percentage",
        "give me the support contacts of {carrier} and the share of its deliveries that arrive on time",
        "which phone number and email does {carrier} use for support, and how punctual are its deliveries?",
        "check {carrier} for me: how to reach support by phone and email, and its on-time rate",
        "what's the on-time delivery rate of {carrier}? I also want their support phone and email.",
        "look up the helpline, support email and punctuality rate of {carrier}",
        "how punctual is {carrier}, and what are its support phone and email?",
        "what's the support number and email for {carrier}, and their on-time rate?",
        "tell me how reliable {carrier} is and how to reach their support by phone and email",
        "get me the on-time rate of {carrier} along with its support phone and email",
        "look up {carrier}: on-time delivery rate, support phone and support email",
        "I'd like to call or email {carrier}. What are the support number and email address, and how often do they deliver on time?",
        "how often does {carrier} deliver on time? Also give me its support phone and email.",
    ),
)
def get_carrier_details(carrier: Carrier) -> tuple[CarrierPhone, CarrierEmail, float]:
    """Get a carrier's support phone, support email and on-time delivery rate.

    Args:
        carrier: Carrier name, e.g. "Atlas Freight".

    Returns:
        phone: the carrier's support phone number.
        email: the carrier's support email.
        on_time_rate: the carrier's on-time delivery rate (percent, last 90 days).
    """
    require(carrier in CARRIERS, f"unknown carrier {carrier!r}; carriers: {', '.join(sorted(CARRIERS))}")
    _, phone, email = CARRIERS[carrier]
    return phone, email, _w().on_time[carrier]


@toolbox.tool(
    asks=(
        "how much import duty would {country} charge on goods declared at {declared_value_usd}, and in which currency?",
        "estimate the customs duty in {country} on a parcel declared at {declared_value_usd}, and its currency",
        "I'm sending goods worth {declared_value_usd} to {country}. What import duty will the recipient pay, and in which currency?",
        "what import duty would a parcel worth {declared_value_usd} pay in {country}, and in what currency?",
        "estimate the duty {country} charges on goods valued at {declared_value_usd}, with the currency",
        "if I declare {declared_value_usd} on a parcel to {country}, how much duty is owed and in which currency?",
        "how much customs duty is charged in {country} on a shipment declared at {declared_value_usd}? Give me the currency too.",
        "calculate the import tax in {country} on contents worth {declared_value_usd}, and say which currency it's in",
        "I'm sending a gift worth {declared_value_usd} to {country}. How much duty will there be to pay, and in what currency?",
    ),
    sense=(within("declared_value_usd", 1, 20000),),
)
def estimate_customs_duty(country: Country, declared_value_usd: Annotated[float, Kind("declared_value_usd")]) -> tuple[float, str]:
    """Estimate the import duty a destination country charges on a parcel's declared value.

    Args:
        country: Destination country, e.g. "Brazil".
        declared_value_usd: Declared value of the contents in US dollars.

    Returns:
        duty: the estimated import duty (in the destination country's currency; 0 under the duty-free threshold).
        currency: the duty currency.
    """
    require(country in DUTY, f"no customs rules for {country!r}; supported countries: {', '.join(sorted(DUTY))}")
    require(declared_value_usd >= 0, "declared_value_usd must not be negative")
    rate, threshold = DUTY[country]
    currency = COUNTRY_BY_NAME[country].currency
    duty = 0.0 if declared_value_usd <= threshold else declared_value_usd * rate * CURRENCY_BY_CODE[currency].per_usd
    return round(duty, 2), currency


@toolbox.tool(
    asks=(
        "how many kilograms is {weight}?",
        "convert {weight} to kilograms",
        "what is {weight} in kg?",
        "how much is {weight} in kilos?",
        "express {weight} in kilograms",
        "I weighed my parcel at {weight}. What's that in kg?",
        "turn {weight} into kilograms",
        "how heavy is {weight} in kilograms?",
        "give me {weight} in metric, in kilograms",
    ),
    gives={"weight_kg": "{weight}"},  # people give the weight as they measured it; converting it is the agent's part
    tags=("canonicalise", "arithmetic", "self_evident"),
)
def convert_weight_to_kg(weight: Annotated[str, Kind("weight_text")]) -> WeightKg:
    """Convert a weight written with any common unit (lb, oz, g, kg) to kilograms.

    Args:
        weight: Weight with units, e.g. "12 lb", "2 lb 8 oz" or "750 g".

    Returns:
        weight_kg: the weight in kilograms (rounded to 2 decimals).
    """
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([a-zA-Z]+)", weight)
    leftover = re.sub(r"(\d+(?:\.\d+)?)\s*([a-zA-Z]+)", "", weight).strip(" ,and")
    require(bool(parts) and not leftover and all(u.lower() in UNITS_TO_KG for _, u in parts),
            f"cannot read the weight {weight!r}; write a number and a unit (kg, g, lb or oz), e.g. '12 lb'")
    return round(sum(float(n) * UNITS_TO_KG[u.lower()] for n, u in parts), 2)


@toolbox.tool(
    asks=(
        "when is the earliest free home-delivery slot in {city} on or after {day}?",
        "find the first home-delivery slot available in {city} from {day} on",
        "I want a delivery in {city} on or after {day}. What's the first free slot?",
        "what's the first open delivery slot in {city} from {day} onwards?",
        "find the earliest home-delivery time I can get in {city} on {day} or later",
        "I'll be home from {day}. When's the soonest delivery slot available in {city}?",
        "check the delivery calendar in {city} and give me the first free slot on or after {day}",
        "how soon can I get a home delivery in {city}, starting {day}?",
        "look for the next available delivery window in {city} from {day} on",
        "what's the earliest I can have something delivered in {city}, from {day} on?",
        "I'd like a home delivery in {city} on {day} or after. When is the first slot that's still free?",
        "what's the soonest free delivery slot in {city} from {day} onwards?",
        "get me the first free home-delivery slot in {city} on or after {day}",
        "when can I get something delivered at home in {city}, at the earliest from {day}?",
        "which is the first free delivery time in {city} starting from {day}?",
    ),
    gives={
        "slot": (
            "the earliest free delivery slot in {city} on or after {day}",
            "the first delivery slot open in {city} from {day}",
            "the earliest open delivery time in {city} from {day} on",
            "the soonest home-delivery slot available in {city} on or after {day}",
            "the first free delivery slot in {city} from {day} onwards",
            "the earliest home-delivery time open in {city} on or after {day}",
            "the soonest free slot for a delivery in {city} from {day}",
            "the first available delivery window in {city} on or after {day}",
            "the next free delivery slot in {city} starting {day}",
        ),
    },
    sense=(around("day", before=0, after=60),),
)
def find_delivery_slot(city: DestinationCity, day: Day) -> Slot:
    """Find the earliest free home-delivery slot in a city on or after a date.

    Args:
        city: Delivery city, e.g. "Paris".
        day: Earliest acceptable date in YYYY-MM-DD; a past date means from now on.

    Returns:
        slot: the earliest free delivery slot (YYYY-MM-DDTHH:MM).
    """
    w = _w()
    _city(city)
    current = max(_day(day), NOW.date())
    require(current <= LAST_SLOT_DAY, f"delivery slots can be booked up to {LAST_SLOT_DAY}")
    while current <= LAST_SLOT_DAY:
        for hour in range(SLOT_OPEN, SLOT_CLOSE):
            moment = datetime(current.year, current.month, current.day, hour)
            if moment > NOW and not _slot_busy(w, city, moment):
                return _stamp(moment)
        current += timedelta(days=1)
    raise ToolError(f"no free delivery slot in {city} up to {LAST_SLOT_DAY}")


@toolbox.tool(
    asks=(
        "book delivery of {tracking_number} for {slot}, and give me the booking reference and the delivery city",
        "schedule {tracking_number} to be delivered at {slot}; what's the booking reference, and which city is it delivered in?",
        "have {tracking_number} delivered at {slot}; what's the booking reference and the delivery city?",
        "book {slot} for the delivery of {tracking_number} and tell me the booking reference and which city it's going to",
        "I'd like {tracking_number} brought to me at {slot}. Can you book it and give me the reference and the delivery city?",
        "reserve {slot} as the delivery time for {tracking_number}; what's the booking reference, and in which city will it be delivered?",
        "set up delivery of {tracking_number} for {slot} and send me the booking reference and the delivery city",
        "arrange for {tracking_number} to arrive at {slot}, and tell me the reference number and the city it'll be delivered in",
        "for {tracking_number}, lock in delivery at {slot}. I need the booking reference and the destination city.",
    ),
    gives={"delivery_city": ("the city where {tracking_number} is delivered at {slot}",
                             "the city {tracking_number} is being delivered to at {slot}")},
    sense=(around("slot", before=0, after=60),),
    tags=("state_change",),
)
def book_delivery_slot(tracking_number: OpenParcel, slot: Slot) -> tuple[str, DestinationCity]:
    """Book a home-delivery time for a parcel that has not been delivered yet.

    Args:
        tracking_number: Carrier tracking number, e.g. "SP123456789".
        slot: Delivery start in YYYY-MM-DDTHH:MM, on the hour or half hour between 08:00 and 19:30.

    Returns:
        booking_reference: the delivery booking reference.
        delivery_city: the city the parcel will be delivered in.
    """
    w = _w()
    row = w.shipment(tracking_number)
    require(row["status"] != "delivered", f"parcel {tracking_number} was already delivered on {row['eta']}")
    require(row["status"] != "out for delivery",
            f"parcel {tracking_number} is already out for delivery, arriving {row['eta']}")
    try:
        moment = datetime.strptime(slot, "%Y-%m-%dT%H:%M")
    except ValueError:
        raise ToolError(f"slot {slot!r} is not in YYYY-MM-DDTHH:MM format") from None
    require(moment > NOW, f"slot {slot} is in the past; it is now {_stamp(NOW)}")
    require(moment.date() <= LAST_SLOT_DAY, f"delivery slots can be booked up to {LAST_SLOT_DAY}")
    require(SLOT_OPEN <= moment.hour < SLOT_CLOSE and moment.minute in (0, 30),
            f"deliveries start on the hour or half hour between {SLOT_OPEN:02d}:00 and {SLOT_CLOSE - 1}:30")
    bookings = w.state.setdefault("delivery_bookings", {})
    key = tracking_number.strip().upper()
    reference = f"DLV-{6001 + len(bookings)}"
    bookings[reference] = {"tracking_number": key, "slot": slot}
    return reference, row["destination"]


@toolbox.tool(
    asks=(
        "how far is it from {origin_city} to {destination_city}, and how long is the freight flight?",
        "get the distance and air-freight flight time from {origin_city} to {destination_city}",
        "what's the great-circle distance between {origin_city} and {destination_city}, and the flight time for air cargo?",
        "how many kilometres is it from {origin_city} to {destination_city} as the crow flies, and how long would a cargo flight take?",
        "measure the straight-line distance between {origin_city} and {destination_city} and the air-freight time",
        "I'm thinking of flying freight from {origin_city} to {destination_city}. How far is it, and how many hours in the air?",
        "what's the distance from {origin_city} to {destination_city} in km, and the air-cargo flight time?",
        "work out the route distance between {origin_city} and {destination_city}, plus the flight hours for air freight",
        "how long does air freight take from {origin_city} to {destination_city}, and what's the distance?",
        "how far apart are {origin_city} and {destination_city}, and what's the flight time for freight between them?",
        "for air cargo from {origin_city} to {destination_city}, what's the distance and how many hours does the flight take?",
    ),
    sense=(distinct("origin_city", "destination_city"), together("origin_city", "destination_city")),
)
def get_shipping_route_distance(origin_city: City, destination_city: DestinationCity) -> tuple[float, float]:
    """Get the great-circle distance between two cities and the air-freight flight time.

    Args:
        origin_city: First city, e.g. "London".
        destination_city: Second city, e.g. "Dubai".

    Returns:
        distance_km: the great-circle distance (kilometres).
        flight_hours: the air-freight flight time (hours, at 800 km/h plus one hour of taxi and climb).
    """
    distance = city_distance_km(_city(origin_city), _city(destination_city))
    return round(distance, 1), round(distance / 800.0 + (1.0 if distance else 0.0), 1)


@toolbox.tool(
    asks=(
        "consolidate {tracking_numbers} into one consignment and tell me its id, total weight and how many parcels it holds",
        "group {tracking_numbers} into a single consignment; what's the consignment id, the total weight and the parcel count?",
        "bill {tracking_numbers} together as one consignment. Give me the consignment id, its total weight and the number of parcels in it.",
        "merge {tracking_numbers} into one consignment and give me the consignment id, the combined weight and the parcel count",
        "combine {tracking_numbers} into a single consignment for billing; what's its id, its total weight, and how many parcels went in?",
        "I'd rather pay for {tracking_numbers} as one. Consolidate them and tell me the consignment id, total weight and number of parcels.",
        "put {tracking_numbers} together in one consignment, and report its id, its total weight and how many parcels it contains",
        "bundle {tracking_numbers} into a consolidated consignment. I need its id, its total weight and the parcel count.",
        "consolidate {tracking_numbers}. What's the consignment id, what does it weigh in total, and how many parcels does it hold?",
    ),
    sense=(sensible("a consignment groups at least two parcels", ("tracking_numbers",),
                    lambda a: len({str(t).strip().upper() for t in a["tracking_numbers"]}) >= 2),),
    tags=("state_change",),
)
def consolidate_shipments(tracking_numbers: TrackingNumbers) -> tuple[str, float, int]:
    """Group parcels that are still on their way into one consignment billed together.

    Args:
        tracking_numbers: Tracking numbers of the parcels to group (at least two not yet delivered).

    Returns:
        consignment_id: the consolidated consignment's id.
        total_weight_kg: the consignment's total weight (kilograms).
        parcels: the number of parcels grouped (delivered ones are left out).
    """
    w = _w()
    keys = sorted({t.strip().upper() for t in tracking_numbers})
    rows = {key: w.shipment(key) for key in keys}
    open_ones = [key for key in keys if rows[key]["status"] != "delivered"]
    require(len(open_ones) >= 2, "consolidation needs at least two different parcels that are not yet delivered")
    consolidations = w.state.setdefault("consolidations", {})
    consignment_id = f"CON-{7001 + len(consolidations)}"
    consolidations[consignment_id] = open_ones
    return consignment_id, round(sum(rows[k]["weight_kg"] for k in open_ones), 1), len(open_ones)


@toolbox.tool(
    asks=(
        "create a return label for {tracking_number} and tell me the label id and where the return goes",
        "I want to send {tracking_number} back. Make a return label and give me its id and the return address.",
        "print a prepaid return label for {tracking_number}; what's the label id and the address it goes back to?",
        "make a return label for {tracking_number}; what's its id, and which address does it go back to?",
        "{tracking_number} has to go back. Generate a prepaid return label and tell me the label id and the return address.",
        "I need to return {tracking_number}. Can you set up a return label and give me its id and the address it will be sent to?",
        "generate a return label for {tracking_number} and let me know the label id and the return address",
        "arrange a prepaid return for {tracking_number}; which label id does it get, and what address does it go to?",
        "issue a return shipping label for {tracking_number}, with its label id and the address the parcel will be returned to",
    ),
    requires=("sender_address_verified",),
    tags=("state_change",),
)
def create_return_label(tracking_number: DeliveredParcel) -> tuple[str, str]:
    """Create a prepaid label that sends a parcel back to the account's sender address.

    Args:
        tracking_number: Carrier tracking number of the parcel to return, e.g. "SP123456789".

    Returns:
        label_id: the return label's id.
        return_address: the address the return goes to.
    """
    w = _w()
    row = w.shipment(tracking_number)
    require(row["status"] != "customs hold",
            f"parcel {tracking_number} is held in customs in {row['current']}; it must clear customs before a return")
    require(w.state.get("sender_address_verified", False),
            "returns go to the sender address, which is not verified: verify the sender address first")
    labels = w.state.setdefault("return_labels", {})
    label_id = f"RTN-{8001 + len(labels)}"
    labels[label_id] = tracking_number.strip().upper()
    return label_id, w.state.get("sender_address", DEFAULT_SENDER)


@toolbox.tool(
    asks=(
        'which shipments match "{query}"?',
        'search the shipments for "{query}"',
        'find the tracking numbers of [up to {max_results}] shipments matching "{query}"',
        'look for shipments matching "{query}" and list [up to {max_results} of] their tracking numbers',
        'which tracking numbers come up for "{query}"?',
        'search our parcels for "{query}" and give me [up to {max_results} of] their tracking numbers',
        'I\'m looking for parcels that match "{query}". What are their tracking numbers?',
        'run a shipment search on "{query}" and show me the [first {max_results}] tracking numbers that come up',
        'list [up to {max_results}] parcels matching "{query}" by tracking number',
    ),
    gives={
        "tracking_numbers": (
            'the shipments matching "{query}"',
            'the parcels that match "{query}"',
            'the [first {max_results}] parcels that come up for "{query}"',
            'the [first {max_results}] shipments a search for "{query}" finds',
        ),
    },
    sense=(within("max_results", 2, 20),),
    tags=("search",),
)
def search_shipments(query: Annotated[str, Kind("shipment_search_terms")], max_results: int = 5) -> TrackingNumbers:
    """Search shipments by words in their carrier, origin, destination, current city or status.

    Args:
        query: Words to look for, e.g. "atlas tokyo" or "customs hold"; every word must match.
        max_results: Maximum number of tracking numbers to return (1-20).

    Returns:
        tracking_numbers: the matching shipments' tracking numbers (alphabetical).
    """
    w = _w()
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for number, row in sorted(w.shipments.items()):
        text = f"{row['carrier']} {row['origin']} {row['destination']} {row['current']} {row['status']}".lower()
        if all(word in text for word in words):
            hits.append(number)
    return hits[:max_results]


@toolbox.tool(
    asks=(
        "verify {address} as my sender address and tell me its city and country",
        "make {address} my verified sender address; which city and country is that?",
        "verify my new sender address, {address}, and tell me which city and country it comes under",
        "I'm moving my dispatch to {address}. Verify it as my sender address and tell me which city and country it's in.",
        "set {address} as the verified sender address on my account, and confirm its city and country",
        "check and save {address} as my sender address; which city and country does it belong to?",
        "register {address} as the address I ship from, and tell me its city and country",
        "validate {address} and make it my sender address; what city and country is it in?",
        "my parcels will go out from {address} from now on. Verify it and tell me the city and country.",
    ),
    gives={
        "city": (
            "the city of {address}",
            "the city of my new sender address {address}",
            "the city in which {address} lies",
        ),
    },
    tags=("state_change",),
)
def verify_sender_address(address: SenderAddress) -> tuple[SenderCity, SenderCountry]:
    """Verify a street address and make it the account's sender and return address.

    Args:
        address: Street address including a served city, e.g. "7 Quay Lane, Paris".

    Returns:
        city: the sender address's city.
        country: the sender address's country.
    """
    w = _w()
    city = _city_in(address)
    w.state["sender_address"] = address
    w.state["sender_address_verified"] = True
    return city, CITY_BY_NAME[city].country


@toolbox.tool(
    asks=(
        "add {amount} of postage credit to my account and tell me the new balance",
        "top up my postage balance by {amount}; what's the balance afterwards?",
        "I'm running low on postage. Add {amount} to my account and tell me my balance.",
        "put {amount} of postage on my account; what's my balance now?",
        "buy {amount} of postage credit and tell me the new balance",
        "my postage is getting low. Top it up with {amount} and tell me where the balance stands.",
        "credit my postage account with {amount}, and tell me the resulting balance",
        "add {amount} to my postage balance; how much will I have afterwards?",
        "I'd like to prepay {amount} of postage. What's my balance after that?",
    ),
    sense=(within("amount", 10, 1000),),
    requires=("sender_address_verified",),
    tags=("state_change",),
)
def add_postage_credit(amount: Annotated[float, Kind("credit_amount")]) -> float:
    """Top up the account's prepaid postage balance.

    Args:
        amount: Credit to add in US dollars (10-5000).

    Returns:
        balance: the postage balance after the top-up (US dollars).
    """
    w = _w()
    require(10 <= amount <= 5000, "amount must be between 10 and 5000 US dollars")
    require(w.state.get("sender_address_verified", False),
            "postage credit can only be bought on a verified account: verify the sender address first")
    w.state["postage_balance"] = round(w.state.get("postage_balance", 0.0) + amount, 2)
    return w.state["postage_balance"]


@toolbox.tool(
    asks=(
        "what's the inventory SKU of {product}?",
        "find the SKU for {product}",
        "look up the stock code for {product}",
        "which SKU is used for {product}?",
        "give me the inventory code for {product}",
        "I'm checking stock of {product}. What SKU should I use?",
        "find the item code that the warehouse system uses for {product}",
        "look up {product} in the inventory and tell me the SKU",
    ),
    gives={"sku": "{product}"},  # people name the product; finding its SKU is the agent's part
    tags=("canonicalise",),
)
def lookup_inventory_sku(product: Annotated[str, Kind("inventory_product_mention")]) -> Sku:
    """Resolve a product named in everyday words to its inventory SKU.

    Args:
        product: Product as people name it, e.g. "an office chair" or "solar panels".

    Returns:
        sku: the product's SKU.
    """
    words = [x.rstrip("s") for x in re.findall(r"[a-z]+", product.lower()) if x not in ("a", "an", "the", "of")]
    require(bool(words), "name the product, e.g. 'office chair'")
    hits = [sku for sku, (name, _) in sorted(PRODUCTS.items())
            if {x.rstrip("s") for x in name.split()} <= set(words)]
    require(len(hits) == 1, f"no single product matches {product!r}; name it as listed, e.g. 'office chair' or 'dome tent'")
    return hits[0]


toolbox.condition(
    "sender_address_verified",
    holds=lambda w: bool(w.state.get("sender_address_verified")),
    broken_state={"sender_address_verified": False},
    fix=("verify_sender_address", {"address": DEFAULT_SENDER}),
    context=("My sender address is {address}.",
             "I ship from {address}.",
             "Parcels go out from my address, {address}."),
    says=("My sender address hasn't been verified yet.",
          "The address I ship from is still unverified.",
          "My return address hasn't been confirmed by the carrier."),
)
toolbox.condition(
    "postage_funded",
    holds=lambda w: w.state.get("postage_balance", 0.0) > 0,
    broken_state={"postage_balance": 0.0},
    # Enough for the heaviest parcel to the farthest city overnight; the query states the amount.
    fix=("add_postage_credit", {"amount": 1000.0}),
    consent="spend",
    context=("If my postage needs topping up, add {amount}.",
             "Top my postage up by {amount} if it runs low.",
             "Should my postage balance be short, load {amount} onto it."),
    says=("My postage balance is empty.",
          "I've run out of postage credit.",
          "There's nothing left on my postage account."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# Pricing a parcel and sending one are two goals: a shipment leaves from the sender's own
# city (city/sender_city) while a quote names any route, so one request doing both would
# price one route and send along another.

toolbox.goal(
    "receive a parcel",
    wants="follow a parcel sent to me, get it delivered when I'm in, or send it back",
    role="recipient",
    tools=("get_tracking_status", "get_shipment_details", "get_carrier_details", "find_delivery_slot",
           "book_delivery_slot", "create_return_label"),
)
# Across seeds: a parcel sent abroad is paid for in the sender's own currency
# (finance_stocks converts an amount from another seed).
toolbox.goal(
    "price a parcel in my currency",
    wants="know what sending a parcel would cost me in my own currency, with the duty, and how long it takes",
    role="sender",
    tools=("convert_weight_to_kg", "quote_shipping_rate", "get_shipping_route_distance", "get_carrier_details",
           "estimate_customs_duty", "currency_name_to_code", "convert_currency_amount"),
)
toolbox.goal(
    "send parcels",
    wants="send my parcels from my own address, with postage on my account, together where I can",
    role="sender",
    tools=("convert_weight_to_kg", "verify_sender_address", "add_postage_credit", "create_shipment",
           "search_shipments", "consolidate_shipments"),
)
toolbox.goal(
    "stock near a city",
    wants="find the warehouse nearest a city where my customers are, how to reach it and what it holds of a product",
    role="merchant",
    tools=("lookup_inventory_sku", "get_warehouse_stock", "find_nearest_warehouse", "get_warehouse_info"),
)
