"""Logistics and Shipping: parcel tracking, shipment creation and rates, warehouses and their
stock, carriers, customs duty, weight units, delivery slots, route distances, consolidation and
return labels."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after, iso_day
from factory.toolbox.gazetteer import (
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
from factory.toolbox.sense import around, distinct, sensible, together, within
from factory.toolbox.user import USER

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
    return [day_after(k) for k in range(1, 15)]


@toolbox.values_for("datetime/delivery_slot")
def _slots(w: ShippingWorld) -> list[str]:
    """Delivery times a person would pick: on the hour within the next two weeks."""
    return [f"{day_after(k)}T{h:02d}:00" for k in range(1, 15, 2) for h in range(9, 19, 3)]


@toolbox.values_for("shipment_search_terms")
def _search_terms(w: ShippingWorld) -> list[str]:
    terms = set()
    for row in w.shipments.values():
        terms.add(f"{row['carrier'].split()[0].lower()} {row['destination'].lower()}")
        terms.add(f"{row['status']} {row['current'].lower()}")
    return sorted(terms)[::3]


toolbox.internal_kinds("inventory_sku")  # people name products; the SKU is the warehouse system's
# A product named in the singular (one no plural s makes) takes an article: "is there stock of the
# car battery", not "stock of car battery" (reading 68 #16).
PRODUCT_NAMES = frozenset(name for name, _ in PRODUCTS.values())
toolbox.written_as("inventory_product_mention", lambda mention: f"the {mention}" if mention in PRODUCT_NAMES else mention)
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(sense=(within("declared_value_usd", 1, 20000),))
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


@toolbox.tool(tags=("canonicalise", "arithmetic", "self_evident"))
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


@toolbox.tool(sense=(around("day", before=0, after=60),))
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
    current = max(iso_day(day), NOW.date())
    require(current <= LAST_SLOT_DAY, f"delivery slots can be booked up to {LAST_SLOT_DAY}")
    while current <= LAST_SLOT_DAY:
        for hour in range(SLOT_OPEN, SLOT_CLOSE):
            moment = datetime(current.year, current.month, current.day, hour)
            if moment > NOW and not _slot_busy(w, city, moment):
                return _stamp(moment)
        current += timedelta(days=1)
    raise ToolError(f"no free delivery slot in {city} up to {LAST_SLOT_DAY}")


@toolbox.tool(sense=(around("slot", before=0, after=60),), tags=("state_change",))
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


@toolbox.tool(sense=(distinct("origin_city", "destination_city"), together("origin_city", "destination_city")))
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


@toolbox.tool(requires=("sender_address_verified",), tags=("state_change",))
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


@toolbox.tool(sense=(within("max_results", 2, 20),), tags=("search",))
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


@toolbox.tool(tags=("state_change",))
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


@toolbox.tool(sense=(within("amount", 10, 1000),), requires=("sender_address_verified",), tags=("state_change",))
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


@toolbox.tool(tags=("canonicalise",))
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
)
toolbox.condition(
    "postage_funded",
    holds=lambda w: w.state.get("postage_balance", 0.0) > 0,
    broken_state={"postage_balance": 0.0},
    # Enough for the heaviest parcel to the farthest city overnight; the query states the amount.
    fix=("add_postage_credit", {"amount": 1000.0}),
    consent="spend",
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# Pricing a parcel and sending one are two goals: a shipment leaves from the sender's own
# city (city/sender_city) while a quote names any route, so one request doing both would
# price one route and send along another.

