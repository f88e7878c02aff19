"""E-commerce: an online store's catalog, sellers, customers, orders, shipments, returns and
refunds, coupons, and checkout from the signed-in shopper's account."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.gazetteer import (
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
from factory.sense import within
from factory.toolbox import Kind, Toolbox, World, require, world
from factory.user import USER

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
    # The signed-in shopper is the user every seed serves (factory.user), a customer like the others.
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
toolbox.written_as("product", "item {}")
# A product reads with an article, by its full name too: "the shop that sells the Glide Yoga Mat",
# "the Turbo race car" (a bare "sells Glide Yoga Mat" was a glitch to cold readers); a book's
# title reads in quotes: "Quantum Gardens", not "the Quantum Gardens" nor a bare "the category
# The Patient Investor is filed under" (reading 68 #22).
toolbox.written_as("product_mention", lambda mention: f"the {mention}" if mention not in CATALOG["Books"][1] else f'"{mention}"')
toolbox.written_as("order_id", "order {}")
toolbox.written_as("return_id", "return {}")
toolbox.written_as("customer_id", "customer {}")
toolbox.written_as("coupon_code", "coupon {}")


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

@toolbox.tool(
    asks=(
        "search the store for {query}",
        "what does the store have for {query}?",
        "find [up to {max_results}] products in the shop matching {query}",
        "which products does the shop list under {query}?",
        "I'd like to browse {query}. Which products come up?",
        "show me what the catalog has under {query}",
        "run a catalog search on {query} and give me the SKUs [of the first {max_results} hits]",
        "what can I buy under {query}? List the item numbers.",
        "pull up [up to {max_results}] catalog listings for {query}",
        "look through the shop for anything matching {query} and list the SKUs",
        "I'm in the market for something under {query}[ and only want the top {max_results}]. Which item numbers come up?",
        "we're restocking the office. List the SKUs the catalog carries for {query}[, capped at {max_results}].",
        "browse the catalog for {query} and report back the matching SKUs[, no more than {max_results}]",
        "look up {query} in the catalog and list the SKUs[, at most {max_results}]",
        "which items come up when I search the shop for {query}?",
        "give me the SKUs of [up to {max_results}] products that match {query}",
        "search for {query} across the shop and tell me the item numbers",
        "list [the first {max_results}] catalog matches for {query}",
        "what turns up in the shop for {query}?",
        "find products matching {query} and give me their SKUs[, up to {max_results}]",
        "which SKUs does the catalog have for {query}?",
        "search the catalog for {query}[, at most {max_results} result(s),] and list the SKUs",
        "what products come up in the store for {query}?",
        "list the products the shop has for {query}[, no more than {max_results}]",
    ),
    tags=("search",),
)
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


@toolbox.tool(
    asks=(
        "what's the SKU of {product}?",
        "find the item number of {product}",
        "look up the product code of {product}",
        "which SKU does the store use for {product}?",
        "I need the SKU for {product}.",
        "what item number is {product} listed under?",
        "I'm trying to find {product} in your catalog. What's its item code?",
        "look {product} up in the catalog and tell me its SKU",
    ),
    gives={"sku": "{product}"},  # shoppers name the product; finding its SKU is the agent's part
    tags=("canonicalise",),
)
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


@toolbox.tool(
    asks=(
        "what is {sku}, how much does it cost, what category is it in and who sells it?",
        "get the name, price, category and seller of {sku}",
        "tell me about {sku}: its name, price, category and seller",
        "look up {sku} and tell me its full name, its price, which category it's in and who the seller is",
        "who sells {sku}, and what are its name, price and category?",
        "I'm thinking of buying {sku}. What's it called exactly, what does it cost, which category is it under and who's the seller?",
        "pull up the product page of {sku}: name, price, category, seller",
        "give me the basics on {sku}, meaning the product name, the price, the category and the seller",
        "how much is {sku}, what's its full product name, and which seller and category is it listed under?",
        "what's {sku} called in full, what's the price, which category, and who's selling it?",
        "show me the listing of {sku} with its name, price, category and seller",
        "before I add {sku} to my basket, what's its full name, price, category and seller?",
        "find {sku} in the catalog and give me the product name, price, category and seller",
    ),
    gives={
        "category": (
            "the category of {sku}",
            "the product category of {sku}",
            "the category {sku} is filed under",
        ),
        "seller_name": (
            "the seller of {sku}",
            "the shop that sells {sku}",
            "the merchant selling {sku}",
            "the seller listed on {sku}",
            "whoever sells {sku}",
            "the vendor of {sku}",
            "the marketplace seller offering {sku}",
            "the business that sells {sku}",
            "the seller who lists {sku}",
            "the retailer behind {sku}",
            "the store selling {sku}",
            "the company that sells {sku}",
            "the seller offering {sku}",
            "the merchant who sells {sku}",
            "the vendor listing {sku}",
            "the retailer selling {sku}",
            "whoever is selling {sku}",
            "the shop offering {sku}",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "how many units of {sku} are in stock, and where does it ship from?",
        "check the stock of {sku} and the city it ships from",
        "is {sku} in stock? Tell me how many units and which city it ships from.",
        "how many of {sku} are left, and which city do they ship from?",
        "find out the stock level of {sku} and where it's dispatched from",
        "do you still have {sku}? How many are available, and from which city would it ship?",
        "I'd like to order {sku} soon. How many are available, and which city does it ship out of?",
        "what's the inventory count for {sku}, and which city is its warehouse in?",
        "see whether {sku} is available: how many units there are and the city it leaves from",
        "how many units of {sku} do you have, and from which city does it ship?",
        "tell me the units in stock of {sku} and its warehouse city",
        "is there stock of {sku}? I'd like the unit count and the city it ships from.",
        "check availability of {sku}: units on hand and the dispatch city",
        "how much stock is there of {sku}, and where is it sent out from?",
    ),
    tags=("informs",),
)
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


@toolbox.tool(
    asks=(
        "what would shipping {sku} to {destination_city} cost, and when would it arrive?",
        "estimate the shipping cost and delivery date of {sku} to {destination_city}",
        "if {sku} is ordered today, how much is delivery to {destination_city} and when does it get there?",
        "quote me shipping for {sku} to {destination_city}, with the expected delivery date",
        "how much does it cost to have {sku} delivered to {destination_city}, and what's the delivery date?",
        "I want {sku} sent to {destination_city}. What's the shipping fee, and when would it show up?",
        "work out the delivery charge and arrival date for {sku} shipped to {destination_city}",
        "when would {sku} reach {destination_city} if I ordered it today, and what does shipping cost?",
        "check shipping on {sku} to {destination_city}: the price and the estimated arrival",
        "what's the postage for sending {sku} to {destination_city}, and how soon would it get there?",
        "I run a small shop and a customer in {destination_city} wants {sku}. What will shipping cost, and what arrival date can I promise?",
        "my sister lives in {destination_city} and has a birthday coming up. If I send her {sku} today, what's the delivery fee and when does it land?",
        "I need a freight quote for {sku} to {destination_city}, with the cost and the expected arrival date.",
        "figure out what it costs to get {sku} to {destination_city} and the date it'd be on the doorstep",
        "how much extra is delivery of {sku} to {destination_city}, and on what date would it arrive?",
        "is shipping {sku} to {destination_city} expensive? Tell me the fee and the estimated delivery day.",
        "I'm ordering {sku} today for an address in {destination_city}. What are the shipping price and the ETA?",
        "I'm relocating to {destination_city} and want {sku} waiting there. How much to ship it, and when would it get in?",
        "calculate delivery for {sku} to {destination_city}: the charge in dollars and the arrival date",
        "a client in {destination_city} is asking about {sku}. What does shipping cost, and on which date would it be delivered?",
        "how many dollars to ship {sku} out to {destination_city}, and which day would the courier drop it off?",
        "need {sku} in {destination_city} soon. What does delivery run, and what's the estimated arrival date?",
    ),
    gives={
        "delivery_date": (
            "the day {sku} would arrive in {destination_city} if ordered today",
            "the estimated arrival date of {sku} in {destination_city}",
            "the date {sku} would be delivered to {destination_city} if ordered today",
            "the expected delivery day for {sku} shipped today to {destination_city}",
        ),
    },
    tags=("informs",),
)
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
    return cost, (TODAY + timedelta(days=days)).isoformat()


@toolbox.tool(
    asks=(
        "how can I reach {seller}? Give me their support email, phone number and city.",
        "get the support email and phone number of {seller}, and the city they're based in",
        "find the contact details of {seller} and the city they're based in",
        "where is {seller} based, and what's their support email and phone number?",
        "I have a question for {seller}. What email and phone number can I use, and which city are they in?",
        "look up the customer-support email and phone line of {seller}, plus its home city",
        "how do I get in touch with {seller}? I need their email, phone and city.",
        "which city does {seller} operate from, and what are its support email and phone number?",
        "give me the support contacts (email and phone) and the location of {seller}",
        "my package from {seller} arrived damaged. What's their support email and phone number, and what city are they in?",
        "I'm filing a complaint with {seller}. I need the support email address, the number to ring and the city they're located in.",
        "what are the support email, phone and city for {seller}?",
        "what's the support email and phone number of {seller}, and where are they located?",
        "find the email, phone and city of {seller}",
        "I need to contact {seller}. Which email address and phone number should I use, and where are they based?",
        "how can I reach {seller}? Give me the email, the phone and the city they're in.",
        "pull up the email, phone and city listed for {seller}",
        "get me the contact email, phone line and base city for {seller}",
        "what email and phone number does {seller} give for support, and where are they based?",
        "how can I get in touch with {seller}? I'd like the email, the phone and the city.",
        "give me the support email and phone number of {seller}, and the city they're in",
        "look up how to contact {seller}: email, phone and home city",
        "where does {seller} operate from, and what's their support email and phone?",
        "tell me the support email, support phone and city of {seller}",
        "I want to ask {seller} about a product. What email and phone should I use, and in which city are they?",
    ),
)
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


@toolbox.tool(
    asks=(
        "how well is {sku} rated, by how many reviewers, and who wrote the most helpful review?",
        "get the average rating, review count and top reviewer of {sku}",
        "are the reviews of {sku} any good? Give me the star rating, the number of reviews and the top reviewer.",
        "what do shoppers think of {sku}? Tell me its average stars, how many reviews it has and whose review is rated most helpful.",
        "check the ratings of {sku}: average stars, number of reviews and the top reviewer",
        "how many reviews does {sku} have, what's the average score, and who's the top reviewer?",
        "I'm about to buy {sku}. What's its star rating, how many people reviewed it, and who wrote the top review?",
        "pull up the review summary of {sku}, with the average rating, the total number of reviews and the top reviewer",
        "is {sku} well reviewed? I'd like the average rating, the review count and the name of the top reviewer.",
        "what's the average star rating of {sku}, how many reviews are there, and who is the top reviewer?",
        "how do buyers rate {sku}? Give me the average, the number of reviews and the most helpful reviewer.",
        "look at the reviews for {sku} and tell me the mean rating, how many there are and who wrote the top one",
    ),
)
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


@toolbox.tool(
    asks=(
        "does {coupon_code} work on {sku}, and what would I pay with it?",
        "check whether {coupon_code} applies to {sku} and give me the price after it",
        "I have {coupon_code}. Can I use it on {sku}, and what's the price after the discount?",
        "can I use {coupon_code} on {sku}, and what would the price come to?",
        "will {coupon_code} knock anything off {sku}? Tell me whether it applies and the final price.",
        "try {coupon_code} on {sku} and tell me whether it's accepted and what I'd pay",
        "I've got {coupon_code}. Does it cover {sku}, and what's the final price?",
        "check {coupon_code} against {sku}: does it apply, and what's the price after the discount?",
        "what would {sku} cost me with {coupon_code}, and does the code apply to it at all?",
        "my cart has {sku}, and a friend passed me {coupon_code}. Is the discount valid on that item, and what would I end up paying?",
        "confirm whether {coupon_code} is accepted for {sku}, and quote the price I'd pay with it",
        "double-check that {coupon_code} is good for {sku}. What's the price once it's applied?",
        "is {coupon_code} eligible for {sku}? If so, how much does the price drop to; if not, what's the regular price?",
    ),
    tags=("informs",),
)
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


@toolbox.tool(
    asks=(
        "how much does {sku} cost in {currency}?",
        "show me the price of {sku} in {currency}",
        "what's the price of {sku} in {currency}?",
        "what does {sku} go for in {currency}?",
        "convert the price of {sku} into {currency}",
        "I pay in {currency}. How much is {sku} for me?",
        "how much would {sku} set me back in {currency}?",
        "tell me what {sku} costs in {currency} at today's exchange rate",
        "what's {sku} priced at in {currency}?",
        "I'm shopping from abroad and my card is billed in {currency}. What would {sku} come to?",
        "quote {sku} in {currency} for an overseas customer",
        "for an expense report, how much is {sku} when priced in {currency}?",
        "for a comparison with local shops, what does {sku} cost once converted to {currency}?",
    ),
    tags=("informs",),
)
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

@toolbox.tool(
    asks=(
        "which customer account is registered to {email}?",
        "find the customer id registered to {email}",
        "look up the store account that uses {email}",
        "who's the customer behind {email}? I need their customer id.",
        "get the customer number for the account with the email {email}",
        "which customer id goes with {email}?",
        "search the customer accounts for {email} and give me the id",
        "a shopper wrote in from {email}. What's their customer id?",
        "find out which customer id {email} belongs to",
    ),
    gives={
        "customer_id": (
            "the customer registered as {email}",
            "the customer with the email {email}",
            "the customer whose account email is {email}",
            "the shopper who signed up with {email}",
            "the account holder of {email}",
            "the person who registered {email}",
            "the buyer whose login is {email}",
            "the shopper using {email}",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "get the name, email, phone number, address and city on file for {customer_id}",
        "who is {customer_id}? Give me their name, email, phone number and delivery address with the city.",
        "pull up the profile of {customer_id}: name, contact details, delivery address and city",
        "what name, email and phone number do we have for {customer_id}, and which address and city do their orders go to?",
        "look up {customer_id} and give me their full name, email address, phone, street address and city",
        "I need to contact {customer_id}. What are their name, email and phone number, and what's their delivery address and city?",
        "show me the account details of {customer_id}: full name, email, phone, default address and city",
        "fetch the name, contact info and default shipping address, city included, of {customer_id}",
        "who's {customer_id}, how can I reach them by email or phone, and where do they live (address and city)?",
    ),
    gives={
        "city": (
            "the city {customer_id} lives in",
            "the city where {customer_id} gets deliveries",
            "the delivery city on file for {customer_id}",
            "the city on the shipping address of {customer_id}",
            "the city where {customer_id} has parcels sent",
            "the city in the default address of {customer_id}",
            "the destination city for orders of {customer_id}",
            "the city where {customer_id} is based",
            "the city listed in the profile of {customer_id}",
            "the city {customer_id} calls home",
            "the city where {customer_id} receives packages",
            "the city where {customer_id} resides",
            "the city recorded on the account of {customer_id}",
            "the city where the parcels of {customer_id} go",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "list the orders of {customer_id} from newest to oldest",
        "what has {customer_id} ordered? Give me the order ids, newest first.",
        "show me the order history of {customer_id}, latest first",
        "which orders has {customer_id} placed? Newest first, please.",
        "get the order ids of {customer_id} sorted newest first",
        "pull up every order placed by {customer_id} with the most recent at the top",
        "I'm helping {customer_id} with a purchase. Can you list their orders, newest first?",
        "what are the order numbers on the account of {customer_id}, from newest to oldest?",
        "look up the purchase history of {customer_id} (order ids, most recent first)",
    ),
)
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


@toolbox.tool(
    asks=(
        "what's the status of {order_id}, when is it delivered, where does it go and what's in it?",
        "get the status, delivery date, shipping address and items of {order_id}",
        "check on {order_id} for me: status, delivery date, address and the products in it",
        "what's going on with {order_id}? Give me its status, the delivery date, the shipping address and the items in it.",
        "look up {order_id}: where's it going, when does it arrive, what's its status and what's in it?",
        "I'm waiting on {order_id}. What's its status, which products are in it, and to which address and on what date is it being delivered?",
        "pull up {order_id} and tell me the status, the delivery date, the address it ships to and the SKUs in it",
        "when will {order_id} be delivered, to which address, what's in it and what's its current status?",
        "give me a summary of {order_id}: status, delivery day, delivery address and items",
    ),
    gives={
        "delivery_date": (
            "the delivery date of {order_id}",
            "the day {order_id} is due",
            "the planned delivery day of {order_id}",
            "the date {order_id} is supposed to arrive",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "where is the parcel of {order_id} now, who's carrying it and when will it arrive?",
        "track the parcel of {order_id}: carrier, latest event, current city and expected delivery",
        "has {order_id} shipped yet? Tell me the carrier, the latest tracking event, where it is and when it's due.",
        "who's delivering {order_id}, where is the parcel right now, what's the latest scan and when is it due?",
        "follow the package for {order_id}: carrier, last tracking update, current city and expected delivery date",
        "I'm waiting for {order_id}. Which courier has it, what's the latest tracking event, what city is it in and when should it arrive?",
        "get the tracking info for {order_id}: the carrier, the most recent event, the parcel's current city and the expected delivery date",
        "what does the tracking say for {order_id}? I want the carrier, the latest status, the city it's in and the expected arrival.",
        "where's my package from {order_id}? Tell me the carrier, the latest event, the city it's in and when it'll get here.",
    ),
    gives={
        "estimated_delivery": (
            "the expected delivery date of {order_id}",
            "the day the parcel of {order_id} is due",
            "the date the parcel for {order_id} should arrive",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "order {quantity} unit(s) of {sku} for me and tell me the order number and total",
        "buy {quantity} unit(s) of {sku} with my saved payment method; what's the order id and the total charged?",
        "place an order for {quantity} unit(s) of {sku} and give me the order id and total",
        "I need {quantity} unit(s) of {sku}. Place the order and tell me the order number and what I was charged.",
        "I'd like to buy {quantity} unit(s) of {sku}. Put the order through and tell me the order id and the total.",
        "check out {quantity} unit(s) of {sku} with my saved payment method and give me the order number and total",
        "put in an order for {quantity} unit(s) of {sku}. I need the order id and the amount charged.",
        "order {quantity} unit(s) of {sku} to my default address. What's the order number, and what's the total?",
        "get me {quantity} unit(s) of {sku}, and let me know the order id and what it cost",
        "we're out of {sku} at the office. Reorder {quantity} unit(s) with the saved payment method and send me the confirmation number and the total.",
        "purchase {quantity} unit(s) of {sku} and report back the order reference and the charge",
        "I've made up my mind on {sku}: {quantity} unit(s), please. What's my order number, and how much did it come to?",
        "start a new order with {quantity} unit(s) of {sku}, check it out, and tell me the order id and final amount",
    ),
    sense=(within("quantity", 1, 3),),
    requires=("payment_method_on_file",),
    tags=("state_change",),
)
def place_order(sku: Sku, quantity: Quantity) -> tuple[str, Usd]:
    """Place an order from the signed-in shopper's account, paid with the payment method on file and delivered to their default address.

    Args:
        sku: Product SKU to order.
        quantity: Number of units (1-10, at most the units in stock).

    Returns:
        order_id: the newly placed order (its order id).
        order_total: the amount charged for the order (US dollars).
    """
    w = world(StoreWorld)
    row = w.product(sku)
    require(1 <= quantity <= 10, "quantity must be between 1 and 10")
    require(bool(w.state.get("payment_methods")),
            "no payment method on file: add a payment method to the account before placing an order")
    left = w.stock(row["sku"])
    require(left > 0, f"{row['name']} ({row['sku']}) is sold out; search the store for an alternative")
    require(quantity <= left, f"only {left} units of {row['sku']} are in stock; order fewer")
    price = row["price"]
    customer = w.customers[w.account]
    _, days = _shipping(SELLERS[row["seller"]][0], customer["city"])
    placed = w.state.setdefault("placed_orders", {})
    order_id = f"ORD-{60001 + len(placed)}"
    placed[order_id] = {
        "id": order_id, "customer": w.account, "items": {row["sku"]: quantity}, "seller": row["seller"],
        "total": round(price * quantity, 2), "order_date": TODAY.isoformat(),
        "ship_date": (TODAY + timedelta(days=1)).isoformat(),
        "delivery_date": (TODAY + timedelta(days=days)).isoformat(), "address": customer["address"],
        "city": customer["city"], "carrier": "UPS", "tracking": f"1Z{60001 + len(placed):010d}", "status": "processing",
    }
    sold = w.state.setdefault("sold", {})
    sold[row["sku"]] = sold.get(row["sku"], 0) + quantity
    return order_id, placed[order_id]["total"]


@toolbox.tool(
    asks=(
        "cancel {order_id} and tell me its status afterwards and how much is refunded",
        "I no longer want {order_id}. Cancel it and tell me its status and the refund.",
        "call off {order_id}; what's its status afterwards and how much will I get back?",
        "I changed my mind about {order_id}. Cancel it, and tell me the status and the refund amount.",
        "stop {order_id} before it's delivered, and tell me the resulting status and the refund",
        "can {order_id} still be cancelled? Cancel it, and tell me the order status and the refund.",
        "withdraw {order_id} and let me know the order status and how much comes back to me",
        "I don't need {order_id} anymore. What's its status once you cancel it, and how much will be refunded?",
        "cancel {order_id} and give me the new status and the refund amount",
    ),
    tags=("state_change", "ends"),
)
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


@toolbox.tool(
    asks=(
        "start a return of {order_id} with the reason {reason}; what's the return id and the refund?",
        "I want to send back {order_id} ({reason}). Open a return and tell me the return number and refund amount.",
        "open a return for {order_id}, reason {reason}, and tell me the return id and how much I'll be refunded",
        "return {order_id} with reason {reason}. I need the return id and the refund amount.",
        "I'd like to return {order_id}. The reason is {reason}. What's the return number, and how much will I get back?",
        "set up a return on {order_id} marked {reason}, and give me the return id and refund",
        "send {order_id} back as {reason} and tell me the return id and refund amount",
        "file a return for {order_id} with the reason code {reason}; what return id do I get, and how big is the refund?",
        "{order_id} needs to go back ({reason}). Open a return and tell me its id and the refund.",
    ),
    tags=("state_change", "ends"),
)
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


@toolbox.tool(
    asks=(
        "where does the refund of {return_id} stand, and how much is it?",
        "check the refund status and amount of {return_id}",
        "has {return_id} been refunded yet? How much is it for?",
        "what's happening with the refund for {return_id}, and what's the amount?",
        "I'm waiting on the refund for {return_id}. What's its status, and how much is it?",
        "look up the refund on {return_id}: its status and the amount",
        "how much is being refunded for {return_id}, and where is that refund now?",
        "give me an update on {return_id}: refund status and refund amount",
        "is the refund for {return_id} processed yet? Tell me the status and how much.",
    ),
)
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

@toolbox.tool(
    asks=(
        "add {method} as a payment method on my account and tell me its id",
        "save {method} to my account for paying and tell me its id",
        "set up {method} as a way to pay on my store account; what id does it get?",
        "I want to pay with {method}. Add it to my account and give me the payment method id.",
        "link {method} to my store account and tell me the id it's saved under",
        "register {method} as a payment option on my profile; what's the new method's id?",
        "add {method} to my saved payment methods. What id did it get?",
        "put {method} on file as a payment method and let me know its id",
        "I'd like {method} stored as a payment method. What's the id it's saved as?",
    ),
    requires=("billing_address_on_file",),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=(
        "set my billing address to {address} and tell me the billing city",
        "change the billing address on my account to {address}; which city is it in?",
        "I've moved. My billing address is now {address}; update it and tell me the billing city.",
        "update my billing address to {address} and confirm the city on it",
        "use {address} as my billing address from now on, and tell me which city it's recorded under",
        "my card statements go to {address}. Make that my billing address and tell me its city.",
        "put {address} on file as my billing address; what billing city do you have now?",
        "switch the billing address on my account to {address} and confirm the billing city",
        "record {address} as the billing address on my account. Which city is that?",
    ),
    tags=("state_change",),
)
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
    context=("If the shop needs a payment method on file, add my {method}.",
             "Save my {method} to the account if the shop asks for one.",
             "You can put my {method} on the account if that's what it takes."),
    says=("I don't have a payment method saved on my store account.",
          "There's no card on file in my shop account.",
          "I haven't saved any way of paying on my store account yet."),
)
toolbox.condition(
    "billing_address_on_file",
    holds=lambda w: bool(w.state.get("billing_address")),
    broken_state={"billing_address": None},
    fix=("set_billing_address", {"address": USER.home_address}),
    consent="share",
    context=("If the shop wants a billing address, use mine: {address}.",
             "Put {address} on the account as my billing address if it's missing.",
             "Should the shop need a billing address, add {address}."),
    says=("My store account has no billing address yet.",
          "I never added a billing address to my shop account.",
          "There's no billing address on my store profile."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# A shopper acts on their own account; looking up any customer by email is the store's
# support staff, a goal of its own, without the tools whose requests speak as the buyer
# ("if I order it today", "I no longer want it").

toolbox.goal(
    "find and buy a product",
    wants="find a product that suits me, learn enough to decide (price, reviews, stock, seller, delivery) and order it "
          "with my coupon, setting up how I pay",
    role="shopper",
    tools=("search_store", "resolve_product_sku", "get_product_details", "get_product_reviews", "check_product_stock",
           "get_seller_info", "estimate_shipping", "validate_coupon", "set_billing_address", "add_payment_method",
           "place_order"),
)
toolbox.goal(
    "sort out an order",
    wants="see where an order of mine is, and cancel it or send it back and get my money",
    role="shopper",
    tools=("get_order_details", "track_shipment", "cancel_order", "start_return", "get_refund_status"),
)
toolbox.goal(
    "help a customer",
    wants="find a customer's account and answer their questions about their orders and deliveries",
    role="support agent",
    tools=("find_customer_by_email", "get_customer_profile", "list_customer_orders", "get_order_details",
           "track_shipment", "get_refund_status"),
)
# Across seeds: a shopper abroad is billed in their own currency (finance_stocks names the
# currency of a country or of a currency's name). Without a delivery quote: its city and the
# currency's country would be drawn apart ("I pay in euros of Italy; ship it to Boston").
toolbox.goal(
    "shop from abroad",
    wants="see what a product would cost me in my own currency, who sells it and where it ships from",
    role="shopper",
    tools=("resolve_product_sku", "get_product_details", "get_seller_info", "get_product_price", "check_product_stock",
           "currency_name_to_code", "get_country_currency_code"),
)
