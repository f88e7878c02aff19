"""E-commerce: an online store's catalog, sellers, customers, orders, shipments, returns and
refunds, coupons, and checkout from the signed-in shopper's account."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    calling_code,
    city_distance_km,
    phone_number,
)
from factory.toolbox.sense import sensible, within
from factory.toolbox.user import USER

toolbox = Toolbox()

Sku = Annotated[str, Kind("product")]  # a SKU; the kind is the noun of "that product" in a request
ProductMention = Annotated[str, Kind("product_mention")]
SearchTerms = Annotated[str, Kind("product_search_terms")]
Seller = Annotated[str, Kind("seller_name")]
CustomerId = Annotated[str, Kind("customer_id")]
OrderId = Annotated[str, Kind("order_id")]
# A request about an order is about one still on its way (its status, its parcel, calling it
# off) or about one delivered (sending it back): these roles draw literal order ids from the
# orders each request can be about, and tie a status check to a cancellation of the same order.
OpenOrderId = Annotated[str, Kind("order_id", role="open_order")]
DeliveredOrderId = Annotated[str, Kind("order_id", role="delivered_order")]
ReturnId = Annotated[str, Kind("return_id")]
Coupon = Annotated[str, Kind("coupon_code")]
Quantity = Annotated[int, Kind("item_quantity")]
# The city a parcel goes to: a customer's delivery city feeds a shipping estimate, and no other
# seed's city (a weather report's, an author's birthplace) is taken for one, nor is a customer's
# city a place to ask the weather of.
DeliveryCity = Annotated[str, Kind("city", role="delivery_city")]
BillingAddress = Annotated[str, Kind("address", role="billing")]
CustomerEmail = Annotated[str, Kind("email", role="customer")]
CustomerPhone = Annotated[str, Kind("phone_number", role="customer")]
Customer = Annotated[str, Kind("person_name", role="customer")]
Reviewer = Annotated[str, Kind("person_name", role="reviewer")]
SellerEmail = Annotated[str, Kind("email", role="seller")]
SellerPhone = Annotated[str, Kind("phone_number", role="seller")]
# The day a parcel arrives is the store's answer, not a day a person plans around elsewhere
# (nobody asks for the temperature on that day a year back).
DeliveryDay = Annotated[str, Kind("date", role="delivery")]
# A currency the shopper names to see a price in (the finance seed's convention: a currency in
# its own right, not the unit of an amount).
NamedCurrency = Annotated[str, Kind("currency_code", role="currency")]
Usd = Annotated[float, Kind("money_amount", role="usd")]  # the store prices and charges in US dollars

TODAY = NOW.date()
RETURN_WINDOW_DAYS = 30  # a delivered order can be returned up to 30 days after delivery
ORDER_HISTORY_DAYS = 40  # customers' past orders were placed in the last 40 days

CATALOG = {  # category → (SKU prefix, product names)
    "Electronics": ("EL", ["Aurora X2 Wireless Earbuds", "Nimbus 14 Laptop", "Pulse Fitness Tracker",
                           "Vista 4K Monitor", "Echo Mini Bluetooth Speaker", "Volt 20000 Power Bank",
                           "Orbit Smart Watch", "Lumen LED Desk Lamp"]),
    "Home & Kitchen": ("HK", ["Brewmaster Drip Coffee Maker", "Crisp Air Fryer", "Everkeen Chef Knife",
                              "Cloudrest Memory Pillow", "Tidy Robot Vacuum", "Hearth Cast Iron Skillet",
                              "Frost Blender Pro", "Aroma Tea Kettle"]),
    "Books": ("BK", ["The Silent Harbour", "Atlas of Small Wonders", "Cooking with Fire", "The Last Cartographer",
                     "Pocket Guide to Birds", "Quantum Gardens", "Letters from Lisbon", "The Patient Investor"]),
    "Sports & Outdoors": ("SP", ["Summit 40L Hiking Backpack", "Trailblazer Running Shoes", "Glide Yoga Mat",
                                 "Ridge Trekking Poles", "Tidal Insulated Bottle", "Apex Camping Tent",
                                 "Stride Cycling Helmet"]),
    "Beauty": ("BE", ["Velvet Matte Lipstick", "Glow Vitamin C Serum", "Pure Clay Face Mask", "Silk Argan Hair Oil",
                      "Bloom Eau de Parfum", "Calm Lavender Body Lotion"]),
    "Toys & Games": ("TG", ["Galaxy Explorer Building Set", "Mystic Forest Board Game", "Turbo RC Race Car",
                            "Cuddly Panda Plush", "Puzzle Master Jigsaw", "Robo Pal Coding Robot"]),
    "Fashion": ("FA", ["Harbor Denim Jacket", "Alpine Wool Scarf", "Metro Leather Belt", "Breeze Linen Shirt",
                       "Voyager Canvas Sneakers", "Classic Aviator Sunglasses"]),
}
# What each product typically sells for (US dollars): a store's price is within 15% of it, so earbuds
# never cost more than a laptop.
TYPICAL_PRICE = {
    "Aurora X2 Wireless Earbuds": 129, "Nimbus 14 Laptop": 999, "Pulse Fitness Tracker": 79, "Vista 4K Monitor": 349,
    "Echo Mini Bluetooth Speaker": 49, "Volt 20000 Power Bank": 45, "Orbit Smart Watch": 249, "Lumen LED Desk Lamp": 39,
    "Brewmaster Drip Coffee Maker": 69, "Crisp Air Fryer": 99, "Everkeen Chef Knife": 59, "Cloudrest Memory Pillow": 45,
    "Tidy Robot Vacuum": 299, "Hearth Cast Iron Skillet": 35, "Frost Blender Pro": 129, "Aroma Tea Kettle": 39,
    "The Silent Harbour": 18, "Atlas of Small Wonders": 32, "Cooking with Fire": 28, "The Last Cartographer": 17,
    "Pocket Guide to Birds": 14, "Quantum Gardens": 24, "Letters from Lisbon": 16, "The Patient Investor": 27,
    "Summit 40L Hiking Backpack": 119, "Trailblazer Running Shoes": 129, "Glide Yoga Mat": 35, "Ridge Trekking Poles": 79,
    "Tidal Insulated Bottle": 29, "Apex Camping Tent": 249, "Stride Cycling Helmet": 69,
    "Velvet Matte Lipstick": 22, "Glow Vitamin C Serum": 38, "Pure Clay Face Mask": 19, "Silk Argan Hair Oil": 26,
    "Bloom Eau de Parfum": 89, "Calm Lavender Body Lotion": 18,
    "Galaxy Explorer Building Set": 59, "Mystic Forest Board Game": 39, "Turbo RC Race Car": 69, "Cuddly Panda Plush": 24,
    "Puzzle Master Jigsaw": 19, "Robo Pal Coding Robot": 129,
    "Harbor Denim Jacket": 89, "Alpine Wool Scarf": 45, "Metro Leather Belt": 39, "Breeze Linen Shirt": 55,
    "Voyager Canvas Sneakers": 69, "Classic Aviator Sunglasses": 129,
}
SELLERS = {  # seller → (home city, the category it specialises in; None sells everything)
    "Cobalt Electronics": ("Seoul", "Electronics"), "Maple & Oak Home": ("Toronto", "Home & Kitchen"),
    "Pagekeeper Books": ("London", "Books"), "Summit Outfitters": ("Seattle", "Sports & Outdoors"),
    "Lumina Beauty": ("Paris", "Beauty"), "Toybox Central": ("Chicago", "Toys & Games"),
    "Threadline Apparel": ("Milan", "Fashion"), "Globex Marketplace": ("Singapore", None),
    "Northwind Traders": ("Berlin", None), "Blue Heron Goods": ("Sydney", None),
}
COUPONS = {  # code → (percent off, category it applies to or None for all, last valid day)
    "WELCOME10": (10, None, date(2025, 12, 31)), "TECH15": (15, "Electronics", date(2025, 9, 30)),
    "READMORE20": (20, "Books", date(2025, 8, 31)), "OUTDOOR12": (12, "Sports & Outdoors", date(2025, 7, 31)),
    "HOME25": (25, "Home & Kitchen", date(2025, 6, 30)), "GLOW5": (5, "Beauty", date(2025, 12, 31)),
    "PLAY10": (10, "Toys & Games", date(2025, 10, 31)), "STYLE15": (15, "Fashion", date(2025, 11, 30)),
    "SPRING30": (30, None, date(2025, 5, 31)),  # expired
}
STREETS = ["Oak Avenue", "Maple Street", "High Street", "Lake Road", "Garden Lane", "Hill Street", "Mill Road",
           "Church Street", "Orchard Way", "Cedar Court"]
CARRIERS = ["UPS", "DHL", "FedEx"]
RETURN_REASONS = ("damaged", "wrong-item", "not-as-described", "no-longer-needed")
REFUND_STATUS = {"requested": "pending", "in transit": "awaiting item", "received": "processing", "refunded": "refunded"}
STOP_WORDS = {"the", "a", "an", "by", "of"}


@dataclass
class StoreWorld(World):
    products: dict[str, dict] = field(default_factory=dict)  # SKU → name, category, seller, price, stock, reviews
    customers: dict[str, dict] = field(default_factory=dict)  # customer id → name, email, phone, address, city
    orders: dict[str, dict] = field(default_factory=dict)  # order id → customer, items, dates, status, carrier
    returns: dict[str, dict] = field(default_factory=dict)  # return id → order, status, refund
    account: str = ""  # customer id of the signed-in shopper

    def product(self, sku: str) -> dict:
        key = sku.strip().upper()
        require(key in self.products, f"unknown SKU {sku!r}; search the store or resolve the product name to a SKU")
        return self.products[key]

    def order(self, order_id: str) -> dict:
        """An order as it stands now: the seed's table, plus orders placed and cancelled in this session."""
        key = order_id.strip().upper()
        placed = self.state.get("placed_orders", {})
        require(key in self.orders or key in placed,
                f"unknown order {order_id!r}; list the customer's orders to find their order ids")
        row = dict(placed.get(key) or self.orders[key])
        if key in self.state.get("cancelled", []):
            row["status"] = "cancelled"
        return row

    def customer(self, customer_id: str) -> dict:
        key = customer_id.strip().upper()
        require(key in self.customers, f"unknown customer id {customer_id!r}; look the customer up by email first")
        return self.customers[key]

    def all_returns(self) -> dict[str, dict]:
        return {**self.returns, **self.state.get("new_returns", {})}

    def stock(self, sku: str) -> int:
        return self.products[sku]["stock"] - self.state.get("sold", {}).get(sku, 0)


def _words(text: str) -> list[str]:
    return [w for w in re.sub(r"[^a-z0-9 ]", " ", text.lower()).split() if w not in STOP_WORDS]


def _shipping(from_city: str, to_city: str) -> tuple[float, int]:
    """(cost in USD, days in transit) from a seller's warehouse to a city."""
    km = city_distance_km(from_city, to_city)
    domestic = CITY_BY_NAME[from_city].country == CITY_BY_NAME[to_city].country
    days = 2 + math.ceil(km / 2500) + (0 if domestic else 1)
    return (4.99 if domestic else round(9.99 + km * 0.0015, 2)), days


def _status(order: dict) -> str:
    shipped, delivered = date.fromisoformat(order["ship_date"]), date.fromisoformat(order["delivery_date"])
    if delivered < TODAY:
        return "delivered"
    if delivered == TODAY:
        return "out for delivery"
    return "shipped" if shipped <= TODAY else "processing"


@toolbox.world
def build_world(rng: random.Random) -> StoreWorld:
    specialists = {cat: s for s, (_, cat) in SELLERS.items() if cat}
    generalists = sorted(s for s, (_, cat) in SELLERS.items() if not cat)
    products = {}
    for category, (prefix, names) in CATALOG.items():
        for i, name in enumerate(names):
            seller = specialists[category] if rng.random() < 0.7 else rng.choice(generalists)
            products[f"{prefix}-{1001 + i}"] = {
                "sku": f"{prefix}-{1001 + i}", "name": name, "category": category, "seller": seller,
                "price": int(TYPICAL_PRICE[name] * rng.uniform(0.85, 1.15)) + 0.99,
                "stock": 0 if rng.random() < 0.08 else rng.randint(6, 240),
                "rating": round(rng.uniform(3.1, 4.9), 1), "reviews": rng.randint(3, 2400),
            }
    customers = {}
    cities = [c.name for c in CITIES]
    for i, (first, last) in enumerate(zip(FIRST_NAMES, LAST_NAMES, strict=True)):
        city = rng.choice(cities)
        customers[f"CUS-{1001 + i}"] = {
            "id": f"CUS-{1001 + i}", "name": f"{first} {last}", "email": f"{first.lower()}.{last.lower()}@example.com",
            "phone": phone_number(rng, city),
            "address": f"{rng.randint(1, 300)} {rng.choice(STREETS)}, {city}", "city": city,
        }
    reviewers = [c["name"] for c in customers.values()]
    for row in products.values():
        row["top_reviewer"] = rng.choice(reviewers)
    by_seller: dict[str, list[str]] = {}
    for sku, row in sorted(products.items()):
        by_seller.setdefault(row["seller"], []).append(sku)
    orders, number = {}, 50001
    for cid, cust in customers.items():
        for _ in range(rng.randint(2, 4)):
            seller = rng.choice(sorted(by_seller))
            skus = rng.sample(by_seller[seller], min(len(by_seller[seller]), rng.randint(1, 3)))
            items = {sku: rng.randint(1, 2) for sku in sorted(skus)}
            recent = rng.random() < 0.45  # many orders are still on their way
            placed = TODAY - timedelta(days=rng.randint(0, 4) if recent else rng.randint(5, ORDER_HISTORY_DAYS))
            _, days = _shipping(SELLERS[seller][0], cust["city"])
            order = {
                "id": f"ORD-{number}", "customer": cid, "items": items, "seller": seller,
                "total": round(sum(products[s]["price"] * q for s, q in items.items()), 2),
                "order_date": placed.isoformat(), "ship_date": (placed + timedelta(days=1)).isoformat(),
                "delivery_date": (placed + timedelta(days=days)).isoformat(), "address": cust["address"],
                "city": cust["city"], "carrier": rng.choice(CARRIERS),
                "tracking": f"1Z{rng.randint(10**9, 10**10 - 1)}",
            }
            order["status"] = "cancelled" if rng.random() < 0.05 else _status(order)
            orders[order["id"]] = order
            number += 1
    returns, number = {}, 7001
    for oid, order in sorted(orders.items()):
        age = (TODAY - date.fromisoformat(order["delivery_date"])).days
        if order["status"] == "delivered" and age <= RETURN_WINDOW_DAYS and rng.random() < 0.25:
            returns[f"RET-{number}"] = {"id": f"RET-{number}", "order": oid, "status": rng.choice(sorted(REFUND_STATUS)),
                                        "reason": rng.choice(RETURN_REASONS), "refund": order["total"]}
            number += 1
    # The signed-in shopper is the user every seed serves (factory.toolbox.user), a customer like the others.
    account = "CUS-1000"
    customers[account] = {"id": account, "name": USER.name, "email": USER.email, "phone": USER.phone,
                          "address": USER.home_address, "city": USER.home_city}
    state = {"payment_methods": ["visa-4242"], "billing_address": customers[account]["address"]}
    return StoreWorld(state=state, products=products, customers=customers, orders=orders, returns=returns,
                      account=account)


# --- value generators -------------------------------------------------------------------

@toolbox.values_for("product")
def _skus(w: StoreWorld) -> list[str]:
    """Products in stock: a request to order a sold-out item only meets an error."""
    return sorted(sku for sku, row in w.products.items() if row["stock"] > 0)


def _resolve(w: StoreWorld, mention: str) -> list[str]:
    words = _words(mention)
    return [sku for sku, row in sorted(w.products.items()) if words and all(x in _words(row["name"]) for x in words)]


@toolbox.values_for("product_mention")
def _mentions(w: StoreWorld) -> list[str]:
    """How shoppers name a product: its full name, or a long name shortened to its brand and
    what it is ("Summit hiking backpack"), with no article a tool would take as part of it."""
    forms = []
    for row in sorted((r for r in w.products.values() if r["stock"] > 0), key=lambda r: r["sku"]):
        words = row["name"].split()
        forms.append(row["name"])
        if len(words) >= 4 and len(words[-2]) > 3 and row["category"] != "Books":
            forms.append(f"{words[0]} {words[-2].lower()} {words[-1].lower()}")
    return [f for f in forms if len(_resolve(w, f)) == 1]


@toolbox.values_for("product_search_terms")
def _search_terms(w: StoreWorld) -> list[str]:
    terms = {row["category"] for row in w.products.values()}
    terms |= {row["name"].split()[-1].lower() for row in w.products.values()}
    return sorted(terms)


@toolbox.values_for("seller_name")
def _sellers(w: StoreWorld) -> list[str]:
    return sorted({row["seller"] for row in w.products.values()})


@toolbox.values_for("customer_id")
def _customer_ids(w: StoreWorld) -> list[str]:
    return sorted(w.customers)


@toolbox.values_for("email")
def _emails(w: StoreWorld) -> list[str]:
    return [w.customers[c]["email"] for c in sorted(w.customers)]


@toolbox.values_for("order_id")
def _order_ids(w: StoreWorld) -> list[str]:
    return sorted(w.orders)


@toolbox.values_for("order_id/open_order")
def _open_orders(w: StoreWorld) -> list[str]:
    return sorted(o for o, row in w.orders.items() if row["status"] in ("processing", "shipped"))


@toolbox.values_for("order_id/delivered_order")
def _returnable_orders(w: StoreWorld) -> list[str]:
    returned = {r["order"] for r in w.returns.values()}
    return sorted(o for o, row in w.orders.items() if row["status"] == "delivered" and o not in returned
                  and (TODAY - date.fromisoformat(row["delivery_date"])).days <= RETURN_WINDOW_DAYS)


@toolbox.values_for("return_id")
def _return_ids(w: StoreWorld) -> list[str]:
    return sorted(w.returns)


@toolbox.values_for("coupon_code")
def _coupons(w: StoreWorld) -> list[str]:
    return sorted(code for code, (_, _, last) in COUPONS.items() if last >= TODAY)


@toolbox.values_for("item_quantity")
def _quantities(w: StoreWorld) -> list[int]:
    return [1, 2, 3]


@toolbox.values_for("city")
def _cities(w: StoreWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("currency_code")
def _currencies(w: StoreWorld) -> list[str]:
    """Every currency, the ones shoppers check most often more often."""
    return ["EUR", "GBP", "CAD", "AUD", "JPY", "EUR", "GBP", "CAD", *sorted(CURRENCY_BY_CODE)]


@toolbox.values_for("address")
def _addresses(w: StoreWorld) -> list[str]:
    """Street addresses in served cities, other than the billing address already on file."""
    return [w.customers[c]["address"] for c in sorted(w.customers) if w.customers[c]["address"] != w.state["billing_address"]]


toolbox.bridge("currency_code")  # a price in a currency named elsewhere ("yen")
# A product reads with an article, by its full name too: "the shop that sells the Glide Yoga Mat",
# "the Turbo race car" (a bare "sells Glide Yoga Mat" was a glitch to cold readers); a book's
# title reads in quotes: "Quantum Gardens", not "the Quantum Gardens" nor a bare "the category
# The Patient Investor is filed under" (reading 68 #22).
toolbox.written_as("product_mention", lambda mention: f"the {mention}" if mention not in CATALOG["Books"][1] else f'"{mention}"')


@toolbox.facts_about("product")
def _product_facts(w: StoreWorld, sku: str) -> dict:
    return {"seller_name": w.products[sku]["seller"]}


@toolbox.facts_about("customer_id")
def _customer_facts(w: StoreWorld, customer_id: str) -> dict:
    row = w.customers[customer_id]
    return {"email": row["email"], "city": row["city"]}


@toolbox.facts_about("order_id")
def _order_facts(w: StoreWorld, order_id: str) -> dict:
    row = w.orders[order_id]
    return {"customer_id": row["customer"], "city": row["city"]}


@toolbox.facts_about("return_id")
def _return_facts(w: StoreWorld, return_id: str) -> dict:
    order = w.orders[w.returns[return_id]["order"]]
    return {"order_id": order["id"], "customer_id": order["customer"]}


# --- catalog ------------------------------------------------------------------------------

@toolbox.tool(tags=("search",))
def search_store(query: SearchTerms, max_results: int = 10) -> list[Sku]:
    """Search the store's catalog by words in a product's name, category or seller.

    Args:
        query: Words to look for, e.g. "earbuds" or "home kitchen"; every word must match.
        max_results: Maximum number of SKUs to return (1-50).

    Returns:
        skus: the SKUs of the matching products (alphabetical).
    """
    w = world(StoreWorld)
    require(1 <= max_results <= 50, "max_results must be between 1 and 50")
    words = _words(query)
    require(bool(words), "query must contain at least one word")
    hits = [sku for sku, row in sorted(w.products.items())
            if all(x in _words(f"{row['name']} {row['category']} {row['seller']}") for x in words)]
    return hits[:max_results]


@toolbox.tool(tags=("canonicalise",))
def resolve_product_sku(product: ProductMention) -> Sku:
    """Resolve a product as a shopper names it to the store's SKU.

    Args:
        product: Product name or a recognisable part of it, in any case, e.g. "the aurora earbuds" or "Crisp Air Fryer".

    Returns:
        sku: the product's SKU.
    """
    w = world(StoreWorld)
    hits = _resolve(w, product)
    require(bool(hits), f"no product matches {product!r}; search the store by keyword instead")
    require(len(hits) == 1, f"{product!r} matches {len(hits)} products; name the product more fully")
    return hits[0]


@toolbox.tool
def get_product_details(sku: Sku) -> tuple[str, Usd, SearchTerms, Seller]:
    """Get a product's name, price, category and seller.

    Args:
        sku: Product SKU, e.g. "EL-1001".

    Returns:
        product_name: the product's name.
        price: the product's price (US dollars).
        category: the product's category.
        seller_name: the seller that sells the product.
    """
    row = world(StoreWorld).product(sku)
    return row["name"], row["price"], row["category"], row["seller"]


@toolbox.tool(tags=("informs",))
def check_product_stock(sku: Sku) -> tuple[int, str]:
    """Check a product's available stock and the city of the warehouse it ships from.

    Args:
        sku: Product SKU.

    Returns:
        units_in_stock: the units available to order (0 when sold out).
        warehouse_city: the city the product ships from.
    """
    w = world(StoreWorld)
    row = w.product(sku)
    return w.stock(row["sku"]), SELLERS[row["seller"]][0]


@toolbox.tool(tags=("informs",))
def estimate_shipping(sku: Sku, destination_city: DeliveryCity) -> tuple[Usd, DeliveryDay]:
    """Estimate the shipping cost and delivery date of a product ordered today to a city.

    Args:
        sku: Product SKU.
        destination_city: City to deliver to, e.g. "Toronto".

    Returns:
        shipping_cost: the shipping cost (US dollars).
        delivery_date: the estimated delivery date if ordered today (YYYY-MM-DD).
    """
    w = world(StoreWorld)
    row = w.product(sku)
    require(destination_city in CITY_BY_NAME,
            f"the store does not deliver to {destination_city!r}; give a major city such as \"London\" or \"Tokyo\"")
    cost, days = _shipping(SELLERS[row["seller"]][0], destination_city)
    return cost, day_after(days)


@toolbox.tool
def get_seller_info(seller: Seller) -> tuple[SellerEmail, SellerPhone, str]:
    """Get a marketplace seller's support email, phone number and home city.

    Args:
        seller: Seller name exactly as listed, e.g. "Pagekeeper Books".

    Returns:
        email: the seller's support email address.
        phone_number: the seller's support phone number.
        city: the city the seller is based in.
    """
    require(seller in SELLERS, f"unknown seller {seller!r}; get a product's details to see who sells it")
    city = SELLERS[seller][0]
    slug = re.sub(r"[^a-z]", "", seller.lower().replace("&", "and"))
    digits = sum(ord(ch) for ch in seller) % 10000
    return f"support@{slug}.example.com", f"+{calling_code(city)}-800-555-{digits:04d}", city


@toolbox.tool
def get_product_reviews(sku: Sku) -> tuple[float, int, Reviewer]:
    """Get a product's average star rating, number of reviews and its most helpful reviewer.

    Args:
        sku: Product SKU.

    Returns:
        average_rating: the average star rating (1-5 stars).
        review_count: the number of reviews.
        top_reviewer: the author of the most helpful review.
    """
    row = world(StoreWorld).product(sku)
    return row["rating"], row["reviews"], row["top_reviewer"]


@toolbox.tool(tags=("informs",))
def validate_coupon(coupon_code: Coupon, sku: Sku) -> tuple[bool, Usd]:
    """Check whether a coupon code applies to a product today and the price after the discount.

    Args:
        coupon_code: Coupon code, e.g. "WELCOME10" (case does not matter).
        sku: Product SKU.

    Returns:
        applies: the answer to whether the coupon applies to the product.
        final_price: the product's price after the coupon (US dollars; the full price when it does not apply).
    """
    w = world(StoreWorld)
    row = w.product(sku)
    percent, category = _coupon(coupon_code)
    applies = category is None or category == row["category"]
    return applies, round(row["price"] * (1 - percent / 100), 2) if applies else row["price"]


def _coupon(code: str) -> tuple[int, str | None]:
    key = code.strip().upper()
    require(key in COUPONS, f"coupon {code!r} does not exist; check the code's spelling")
    percent, category, last = COUPONS[key]
    require(last >= TODAY, f"coupon {key} expired on {last.isoformat()}")
    return percent, category


@toolbox.tool(tags=("informs",))
def get_product_price(sku: Sku, currency: NamedCurrency) -> float:
    """Get a product's price converted into another currency at today's rate.

    Args:
        sku: Product SKU.
        currency: ISO 4217 code of the currency, e.g. "EUR" or "JPY".

    Returns:
        price: the product's price in that currency (rounded to 2 decimals).
    """
    row = world(StoreWorld).product(sku)
    require(currency in CURRENCY_BY_CODE, f"unknown currency {currency!r}; use an ISO 4217 code such as EUR")
    return round(row["price"] * CURRENCY_BY_CODE[currency].per_usd, 2)


# --- customers and orders -----------------------------------------------------------------

@toolbox.tool
def find_customer_by_email(email: CustomerEmail) -> CustomerId:
    """Find the customer account registered to an email address.

    Args:
        email: Email address, e.g. "jane.doe@example.com" (case does not matter).

    Returns:
        customer_id: the customer registered to that email (their customer id).
    """
    w = world(StoreWorld)
    key = email.strip().lower()
    require("@" in key, f"{email!r} is not an email address")
    hits = [cid for cid, row in sorted(w.customers.items()) if row["email"] == key]
    require(bool(hits), f"no customer account is registered to {email}")
    return hits[0]


@toolbox.tool
def get_customer_profile(customer_id: CustomerId) -> tuple[Customer, str, CustomerPhone, str, DeliveryCity]:
    """Get a customer's name, contact details and default delivery address.

    Args:
        customer_id: Customer account id, e.g. "CUS-1001".

    Returns:
        full_name: the customer's full name.
        email: the customer's email address.
        phone_number: the customer's phone number.
        address: the customer's default delivery address.
        city: the city of the customer's delivery address.
    """
    row = world(StoreWorld).customer(customer_id)
    return row["name"], row["email"], row["phone"], row["address"], row["city"]


@toolbox.tool
def list_customer_orders(customer_id: CustomerId) -> list[OrderId]:
    """List a customer's orders, most recent first.

    Args:
        customer_id: Customer account id.

    Returns:
        order_ids: the customer's orders (order ids, most recent first).
    """
    w = world(StoreWorld)
    cid = w.customer(customer_id)["id"]
    rows = [r for r in (*w.orders.values(), *w.state.get("placed_orders", {}).values()) if r["customer"] == cid]
    return [r["id"] for r in sorted(rows, key=lambda r: (r["order_date"], r["id"]), reverse=True)]


@toolbox.tool
def get_order_details(order_id: OpenOrderId) -> tuple[str, DeliveryDay, str, list[Sku]]:
    """Get an order's status, delivery date, delivery address and the products in it.

    Args:
        order_id: Order id, e.g. "ORD-50001".

    Returns:
        order_status: the order's status (processing, shipped, out for delivery, delivered or cancelled).
        delivery_date: the order's delivery date (YYYY-MM-DD; planned if not yet delivered, empty if cancelled).
        shipping_address: the address the order is delivered to.
        item_skus: the SKUs of the products in the order.
    """
    order = world(StoreWorld).order(order_id)
    planned = "" if order["status"] == "cancelled" else order["delivery_date"]
    return order["status"], planned, order["address"], sorted(order["items"])


@toolbox.tool
def track_shipment(order_id: OpenOrderId) -> tuple[str, str, str, DeliveryDay]:
    """Track an order's parcel: carrier, latest tracking event, where it is now and when it should arrive.

    Args:
        order_id: Order id.

    Returns:
        carrier: the delivery company carrying the parcel.
        tracking_status: the latest tracking event (label created, in transit, out for delivery or delivered).
        current_city: the city where the parcel is now.
        estimated_delivery: the parcel's expected delivery date (YYYY-MM-DD).
    """
    order = world(StoreWorld).order(order_id)
    require(order["status"] != "cancelled", f"order {order['id']} was cancelled, so there is no parcel to track")
    origin = SELLERS[order["seller"]][0]
    status = order["status"]
    if status == "processing":
        event, where = "label created", origin
    elif status == "shipped":
        start, end = date.fromisoformat(order["ship_date"]), date.fromisoformat(order["delivery_date"])
        halfway = (TODAY - start).days * 2 >= (end - start).days
        event, where = "in transit", order["city"] if halfway else origin
    else:
        event, where = status, order["city"]
    return order["carrier"], event, where, order["delivery_date"]


def _coupon_fits(code: str, sku: str) -> bool:
    """Whether a coupon exists, is still valid (`_coupon`) and covers the category of the product
    with this SKU (its prefix, `CATALOG`)."""
    try:
        _, category = _coupon(code)
    except ToolError:
        return False
    return category is None or CATALOG[category][0] == sku.split("-")[0].upper()


# A coupon is the shopper's to offer: left out, the order has none, and an agent has no reason to
# add one. Checked first for the same product (`validate_coupon`), it is the coupon the order uses.
@toolbox.tool(sense=(within("quantity", 1, 3),
                     sensible("a coupon that does not cover the product", ("coupon_code", "sku"),
                              lambda a: _coupon_fits(a["coupon_code"], a["sku"]))),
              requires=("payment_method_on_file",), tags=("state_change",))
def place_order(sku: Sku, quantity: Quantity, coupon_code: Coupon = "") -> tuple[str, Usd]:
    """Place an order from the signed-in shopper's account, paid with the payment method on file and delivered to their default address.

    Args:
        sku: Product SKU to order.
        quantity: Number of units (1-10, at most the units in stock).
        coupon_code: Coupon code to apply to the order, e.g. "WELCOME10" (case does not matter; none when left out).

    Returns:
        order_id: the newly placed order (its order id).
        order_total: the amount charged for the order (US dollars, after the coupon).
    """
    w = world(StoreWorld)
    row = w.product(sku)
    require(1 <= quantity <= 10, "quantity must be between 1 and 10")
    price = row["price"]
    if coupon_code.strip():
        percent, category = _coupon(coupon_code)
        require(category in (None, row["category"]),
                f"coupon {coupon_code.strip().upper()} does not apply to {row['category']}; order without it or use another coupon")
        price = round(price * (1 - percent / 100), 2)
    require(bool(w.state.get("payment_methods")),
            "no payment method on file: add a payment method to the account before placing an order")
    left = w.stock(row["sku"])
    require(left > 0, f"{row['name']} ({row['sku']}) is sold out; search the store for an alternative")
    require(quantity <= left, f"only {left} units of {row['sku']} are in stock; order fewer")
    customer = w.customers[w.account]
    _, days = _shipping(SELLERS[row["seller"]][0], customer["city"])
    placed = w.state.setdefault("placed_orders", {})
    order_id = f"ORD-{60001 + len(placed)}"
    placed[order_id] = {
        "id": order_id, "customer": w.account, "items": {row["sku"]: quantity}, "seller": row["seller"],
        "total": round(price * quantity, 2), "order_date": TODAY.isoformat(),
        "ship_date": day_after(1),
        "delivery_date": day_after(days), "address": customer["address"],
        "city": customer["city"], "carrier": "UPS", "tracking": f"1Z{60001 + len(placed):010d}", "status": "processing",
    }
    sold = w.state.setdefault("sold", {})
    sold[row["sku"]] = sold.get(row["sku"], 0) + quantity
    return order_id, placed[order_id]["total"]


@toolbox.tool(tags=("state_change", "ends"))
def cancel_order(order_id: OpenOrderId) -> tuple[str, Usd]:
    """Cancel an order that has not been delivered or handed to the courier for delivery; the payment is refunded in full.

    Args:
        order_id: Order id.

    Returns:
        order_status: the order's status after the request.
        refund_amount: the amount refunded to the customer (US dollars).
    """
    w = world(StoreWorld)
    order = w.order(order_id)
    require(order["status"] != "cancelled", f"order {order['id']} is already cancelled")
    require(order["status"] in ("processing", "shipped"),
            f"order {order['id']} is {order['status']} and can no longer be cancelled; start a return instead"
            if order["status"] == "delivered" else
            f"order {order['id']} is out for delivery and can no longer be cancelled; refuse the parcel or return it")
    w.state.setdefault("cancelled", []).append(order["id"])
    return "cancelled", order["total"]


@toolbox.tool(tags=("state_change", "ends"))
def start_return(
    order_id: DeliveredOrderId, reason: Literal["damaged", "wrong-item", "not-as-described", "no-longer-needed"]
) -> tuple[str, Usd]:
    """Start a return for a delivered order; returns are accepted up to 30 days after delivery.

    Args:
        order_id: Order id.
        reason: Why the items go back: "damaged", "wrong-item", "not-as-described" or "no-longer-needed".

    Returns:
        return_id: the new return (its return id).
        refund_amount: the amount that will be refunded once the items arrive (US dollars).
    """
    w = world(StoreWorld)
    order = w.order(order_id)
    require(order["status"] == "delivered",
            f"order {order['id']} is {order['status']}; only delivered orders can be returned"
            + (" (cancel it instead)" if order["status"] in ("processing", "shipped") else ""))
    delivered = date.fromisoformat(order["delivery_date"])
    last = delivered + timedelta(days=RETURN_WINDOW_DAYS)
    require(TODAY <= last, f"the return window for order {order['id']} closed on {last.isoformat()} "
                           f"({RETURN_WINDOW_DAYS} days after delivery)")
    existing = [rid for rid, r in sorted(w.all_returns().items()) if r["order"] == order["id"]]
    require(not existing, f"order {order['id']} already has a return: {existing[0] if existing else ''}")
    new = w.state.setdefault("new_returns", {})
    return_id = f"RET-{8001 + len(new)}"
    refund = order["total"]
    new[return_id] = {"id": return_id, "order": order["id"], "status": "requested", "reason": reason, "refund": refund}
    return return_id, refund


@toolbox.tool
def get_refund_status(return_id: ReturnId) -> tuple[str, Usd]:
    """Check where the refund of a return stands.

    Args:
        return_id: Return id, e.g. "RET-7001".

    Returns:
        refund_status: the refund's status (pending, awaiting item, processing or refunded).
        refund_amount: the amount being refunded (US dollars).
    """
    w = world(StoreWorld)
    key = return_id.strip().upper()
    returns = w.all_returns()
    require(key in returns, f"unknown return {return_id!r}; start a return for a delivered order first")
    row = returns[key]
    return REFUND_STATUS[row["status"]], row["refund"]


# --- checkout settings ----------------------------------------------------------------------

@toolbox.tool(requires=("billing_address_on_file",), tags=("state_change",))
def add_payment_method(method: Literal["credit card", "debit card", "PayPal", "gift card"]) -> str:
    """Add a payment method to the signed-in shopper's account; needs a billing address on file.

    Args:
        method: Kind of payment method: "credit card", "debit card", "PayPal" or "gift card".

    Returns:
        payment_method_id: the id of the saved payment method.
    """
    w = world(StoreWorld)
    require(bool(w.state.get("billing_address")),
            "no billing address on file: set a billing address before adding a payment method")
    methods = w.state.setdefault("payment_methods", [])
    method_id = f"{method.lower().replace(' ', '-')}-{len(methods) + 1}"
    methods.append(method_id)
    return method_id


@toolbox.tool(tags=("state_change",))
def set_billing_address(address: BillingAddress) -> str:
    """Set the signed-in shopper's billing address.

    Args:
        address: One-line street address ending with the city, e.g. "12 Oak Avenue, Toronto".

    Returns:
        billing_city: the city of the billing address.
    """
    street, _, city = address.rpartition(",")
    city = city.strip()
    require(bool(street.strip()) and city in CITY_BY_NAME,
            f"address {address!r} must be a street address ending with a city we serve, e.g. \"12 Oak Avenue, Toronto\"")
    world(StoreWorld).state["billing_address"] = address.strip()
    return city


toolbox.condition(
    "payment_method_on_file",
    holds=lambda w: bool(w.state.get("payment_methods")),
    broken_state={"payment_methods": []},
    fix=("add_payment_method", {"method": "credit card"}),
    consent="share",  # saving a way to pay is the shopper's call
)
toolbox.condition(
    "billing_address_on_file",
    holds=lambda w: bool(w.state.get("billing_address")),
    broken_state={"billing_address": None},
    fix=("set_billing_address", {"address": USER.home_address}),
    consent="share",
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# A shopper acts on their own account; looking up any customer by email is the store's
# support staff, a goal of its own, without the tools whose requests speak as the buyer
# ("if I order it today", "I no longer want it").

