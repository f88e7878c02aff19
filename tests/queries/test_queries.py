import random
import re
from pathlib import Path

import pytest

from factory.chains.code import parse_chain
from factory.checks.faithfulness import found, normalise, value_groups
from factory.config import resource_dir
from factory.queries import render_value, template_query
from factory.queries.placement import day_first
from factory.queries.readable import walk
from factory.queries.situations import fits_goal, situation, situations_in
from factory.queries.wording import agree, literal_noun, mark_asked, tidy
from factory.records import Chain
from factory.seeds.library import load_seeds


@pytest.fixture(scope="module")
def weather():
    return load_seeds(Path(resource_dir("seeds")))["weather"]


def word(chain_code, seed, k=0):
    chain = parse_chain(chain_code, seed.specs)
    joint = sorted(seed.toolbox.joint_values)
    return template_query(chain, seed.specs, seed.toolbox.tools, joint, random.Random(k),
                          written={seed.slug: seed.toolbox.written}).variants


HOTTEST = re.compile(r"\b(?:hottest|warmest|highest temperature)\b")  # how the hottest city is described
HOTTEST_THEN_WIND = (
    'data0, data1 = find_hottest_city(country="Spain", date="2025-06-14")\n'
    'data2, data3 = get_wind_forecast(city=data0, date="2025-06-20")\n'
)


def test_a_nested_value_is_described_by_what_it_is_never_by_a_step(weather):
    for k in range(20):
        text = word(HOTTEST_THEN_WIND, weather, k)["template"]
        assert HOTTEST.search(text) and "Spain" in text, text
        assert not re.search(r"\bstep\b|\bfirst,|\bfinally\b", text, re.IGNORECASE)
        assert not any(name in text for name in weather.specs)
        assert "_" not in text


def test_every_literal_is_stated_in_a_form_the_faithfulness_check_reads(weather):
    for k in range(30):
        text = normalise(word(HOTTEST_THEN_WIND, weather, k)["template"])
        for value in ("Spain", "2025-06-14", "2025-06-20"):
            assert all(any(found(normalise(f), text) for f in group) for group in value_groups(value)), (value, text)


def test_phrasings_and_frames_vary(weather):
    texts = {word(HOTTEST_THEN_WIND, weather, k)["template"] for k in range(40)}
    openings = {t.split()[0] for t in texts}
    assert len(texts) >= 30 and len(openings) >= 6


def test_a_value_described_twice_is_that_thing_the_second_time(weather):
    code = ('data0, data1 = find_hottest_city(country="Japan", date="2025-06-14")\n'
            'data2, data3 = get_wind_forecast(city=data0, date="2025-06-14")\n'
            'data4, data5 = get_uv_index(city=data0, date="2025-06-14")\n')
    for k in range(10):
        text = word(code, weather, k)["template"]
        assert len(HOTTEST.findall(text)) == 1 and text.count("Japan") == 1 and re.search(r"(?:that|same|this) city", text), text


def test_a_day_is_not_that_day_when_another_day_was_stated_in_between():
    """A due date asked for, then a literal day, then the due date again: "that day" would
    point at the wrong one, so the due date is described again."""
    library = load_seeds(Path(resource_dir("seeds")))["library_science"]
    code = ('data0, data1 = checkout_book(isbn="9781644679876")\n'
            'data2, data3 = reserve_reading_room(branch="Edinburgh Old Town Branch", start="2025-07-09T12:00")\n'
            'data4, data5 = get_branch_hours(branch="Edinburgh Old Town Branch", date=data1)\n')
    for k in range(10):
        text = word(code, library, k)["template"]
        assert "that day" not in text, text


def test_a_day_is_not_that_day_when_another_day_was_asked_for():
    """"The first Wednesday after May 14 ... sunrise in Shanghai on that date" reads as the
    Wednesday; the sunrise is for May 14, so May 14 is named again."""
    time_seed = load_seeds(Path(resource_dir("seeds")))["time_and_date"]
    code = ('data0 = parse_date_text(text="May 14, 2025")\n'
            'data1 = get_next_weekday_date(weekday="Wednesday", after=data0)\n'
            'data2, data3 = get_sunrise_sunset(city="Shanghai", date=data0)\n')
    asked_first = 0
    for k in range(30):
        text = word(code, time_seed, k)["template"]
        if text.index("Wednesday") < text.index("Shanghai"):  # the Wednesday is said before the sunrise part
            asked_first += 1
            assert "that date" not in text and "that day" not in text, text
    assert asked_first >= 3


def test_a_thing_named_by_its_id_twice_is_that_thing_the_second_time():
    """A book asked about and then placed on hold is "that book" the second time, not "the book
    with ISBN 978..." again; two different books keep their numbers."""
    library = load_seeds(Path(resource_dir("seeds")))["library_science"]
    same = ('data0, data1 = scan_isbn(isbn="9781644679876")\n'
            'data2, data3 = checkout_book(isbn="9781644679876")\n')
    for k in range(10):
        text = word(same, library, k)["template"]
        assert text.count("9781644679876") == 1 and re.search(r"\b(?:that|the same|this) book\b", text), text
    two = ('data0, data1 = scan_isbn(isbn="9781644679876")\n'
           'data2, data3 = checkout_book(isbn="9781317878667")\n')
    for k in range(10):
        text = word(two, library, k)["template"]
        assert "9781644679876" in text and "9781317878667" in text and not re.search(r"(?:that|same|this) book", text), text


def test_a_described_value_is_called_by_its_written_noun():
    """A book found by a search is "that book" the second time, not "that isbn"."""
    from factory.queries.wording import noun_of, that
    from factory.records import Output

    isbn = Output(name="isbn", type="str", kind="isbn")
    assert noun_of([isbn], {"isbn": "the book with ISBN {}"}) == "book"
    assert noun_of([isbn], {}) == "isbn"
    agent = Output(name="agent", type="str", kind="person_name", role="agent")
    assert noun_of([agent], {"person_name/agent": "the estate agent {}"}) == "estate agent"
    assert noun_of([Output(name="latitude", type="float", kind="latitude", role="listing")]) == "latitude"
    assert noun_of([Output(name="name", type="str", kind="person_name", role="patient")]) == "patient"
    places = Output(name="place_ids", type="list[str]", kind="place_ids")
    assert that(noun_of([places]), True, random.Random(0)) == "those places"
    hotels = Output(name="hotels", type="list[str]", kind="hotel_ids")
    assert that(noun_of([hotels], {"hotel_ids": "hotels {}"}), True, random.Random(0)).endswith(" hotels")
    assert {that("day", False, random.Random(k)) for k in range(20)} == {"that day"}  # tidying knows "that day"
    # not "the same hotel" or "this hotel": read cold, they suggest another hotel was meant before
    assert {that("hotel", False, random.Random(k)) for k in range(40)} == {"that hotel"}


def test_literal_nouns_come_from_written_forms():
    assert literal_noun("order {}") == "order" and literal_noun("the book with ISBN {}") == "book"
    assert literal_noun("the estate agent {}") == "estate agent" and literal_noun("leave request {}") == "leave request"
    assert literal_noun("{} °C") is None and literal_noun('"{}"') is None and literal_noun(str.upper) is None


def test_a_canonicalised_value_is_named_as_the_user_says_it(weather):
    code = ('data0 = resolve_forecast_date(expression="next saturday")\n'
            'data1, data2 = get_uv_index(city="Lyon", date=data0)\n')
    text = word(code, weather)["template"]
    assert "next saturday" in text and "2025" not in text


def test_optional_parts_are_stated_only_when_given(weather):
    base = 'data0 = calculate_feels_like(temperature_c=12.0, wind_speed_kmh=30.0{})\n'
    without = {word(base.format(""), weather, k)["template"] for k in range(10)}
    assert not any("humidity" in t for t in without)
    given = {word(base.format(", humidity_percent=65"), weather, k)["template"] for k in range(10)}
    assert all("65%" in t for t in given)


def test_a_run_that_counts_phrasings_uses_each_before_repeating_one(weather):
    """Given the run's counts, a request takes a phrasing used least: over as many requests as
    the tool has asks, every ask is used once (at random, two would likely repeat)."""
    from collections import Counter

    chain = parse_chain('data0, data1 = get_uv_index(city="Lyon", date="2025-06-14")\n', weather.specs)
    asks = weather.toolbox.tools["get_uv_index"].asks
    used = Counter()
    for k in range(len(asks)):
        worded = template_query(chain, weather.specs, weather.toolbox.tools, rng=random.Random(k), used=used)
        assert [tool for tool, _ in worded.phrasings] == ["get_uv_index"]
        used.update(worded.phrasings)
    assert len(used) == len(asks) and set(used.values()) == {1}
    drawn = Counter(p for k in range(len(asks)) for p in template_query(
        chain, weather.specs, weather.toolbox.tools, rng=random.Random(k)).phrasings)
    assert max(drawn.values()) > 1  # without counts the same seeds repeat a phrasing


def test_fix_up_calls_are_not_asked_for(weather):
    chain = parse_chain('data0 = enable_weather_notifications(channel="sms")\n'
                        'data1 = subscribe_to_weather_alerts(city="Oslo")\n', weather.specs)
    chain.calls[0].fixes = "weather_notifications"
    text = template_query(chain, weather.specs, weather.toolbox.tools).variants["template"]
    assert "sms" not in text and "Oslo" in text


def test_asks_start_in_lower_case_for_frames_to_capitalise():
    """A statement ask written as a sentence ("Give me an update on ...") reads "One more thing:
    give me an update ..." after a follow-up frame; "I" and acronyms keep their capitals."""
    from factory.queries.wording import sentence_start

    assert sentence_start("Give me an update on {flight}.") == "give me an update on {flight}."
    assert sentence_start("I'd like the {x}.") == "I'd like the {x}." and sentence_start("UV in {city}?") == "UV in {city}?"
    assert sentence_start("{name} has moved to {city}.") == "{name} has moved to {city}."
    travel = load_seeds(Path(resource_dir("seeds")))["travel"]
    code = ('a, b, c = get_flight_status(flight_number="BW8242", date="2025-06-18")\n'
            'd, e, f, g = get_flight_details(flight_number="BW8242", date="2025-06-18")\n')
    for k in range(30):
        text = word(code, travel, k)["template"]
        assert not re.search(r"(?:: |, |And |Also )(?:Give|Get) ", text), text


def test_frames_fit_the_ask():
    """Statements are not introduced as questions, and asks with lists of their own are not
    joined into one run-on list."""
    from factory.queries.frames import frame

    for k in range(200):
        text = frame(["check the wind in Lyon", "Look up the UV index in Lyon. Give me the risk level too."], random.Random(k))
        assert "Another question: Look" not in text and "another question: look" not in text.lower()
        listed = frame(["check the wind in Lyon and tell me the gusts", "book a table at Chez Paul"], random.Random(k))
        assert "gusts and book" not in listed and "gusts, book" not in listed, listed


def test_the_variant_without_conjunctions_has_none(weather):
    code = ('data0, data1 = get_wind_forecast(city="Rome", date="2025-06-14")\n'
            'data2, data3 = get_uv_index(city="Rome", date="2025-06-14")\n')
    for k in range(10):
        bare = word(code, weather, k)["no_conjunctions"]
        assert not re.search(r"\b(also|then|after that|one more thing)\b", bare, re.IGNORECASE)


def test_context_sentences_open_the_request(weather):
    chain = parse_chain('data0 = subscribe_to_weather_alerts(city="Oslo")\n', weather.specs)
    text = template_query(chain, weather.specs, weather.toolbox.tools, context=["My alerts are off."]).variants["template"]
    assert text.startswith("My alerts are off.")


def test_text_tidying():
    assert agree("stay 1 night(s), not 3 night(s)") == "stay 1 night, not 3 nights"
    assert agree("pay 1.5 euro(s)") == "pay 1.5 euros"
    assert tidy("book the the room for a the hottest city ,  please") == "book the room for the hottest city, please"
    assert tidy("the wind on tomorrow and on next saturday") == "the wind tomorrow and next saturday"
    assert tidy("is the air on next Thursday good?") == "is the air next Thursday good?"
    # "around June 24, 2025 at 8:00 am" clashes: the hour comes first
    assert tidy("is it open around June 24, 2025 at 8:00 am?") == "is it open around 8:00 am on June 24, 2025?"
    assert tidy("be there by 24 June 2025 at 17:30.") == "be there by 17:30 on 24 June 2025."
    assert tidy("a reminder 15 minutes after next Monday at 9:30am?") == "a reminder 15 minutes after 9:30am next Monday?"
    assert tidy("Air quality today for the hottest city in Italy that day?") == "Air quality today for the hottest city in Italy?"
    assert tidy("The wind tomorrow, and the UV on June 3 that day?") == "The wind tomorrow, and the UV on June 3 that day?"
    assert tidy("the price it trades at right now in EUR today, at today's rate?") == \
        "the price it trades at right now in EUR, at today's rate?"
    assert tidy("how much today's stock price of LUMC is in CAD today?") == "how much today's stock price of LUMC is in CAD?"
    assert tidy("the outlook around June 27, 2025 at 6:00 am: temperature") == "the outlook around 6:00 am on June 27, 2025: temperature"
    assert tidy("the sun in Italy on last monday on that date?") == "the sun in Italy last monday?"
    assert tidy("sundown in Austin on the end of the week") == "sundown in Austin at the end of the week"
    assert tidy("worth on today's market") == "worth on today's market"
    assert tidy("I'd like to order the that item soon") == "I'd like to order that item soon"
    assert tidy("the UV index for the hottest city in Chile on that day on that day") == \
        "the UV index for the hottest city in Chile on that day"
    assert tidy("the UV index in the hottest city in Spain tomorrow on that date?") == \
        "the UV index in the hottest city in Spain tomorrow?"
    assert tidy("the wind in Lyon on June 14, 2025 for that day") == "the wind in Lyon on June 14, 2025"
    assert tidy("the wind in Lyon on that day, and the rain on that day") == "the wind in Lyon on that day, and the rain on that day"


def test_relative_days_are_written_capitalised():
    """"next wednesday", "the 25th of june" in a request read as typos; the tools read any case."""
    seeds = load_seeds(Path(resource_dir("seeds")))
    for slug, kind in (("weather", "relative_day"), ("time_and_date", "relative_time")):
        seed = seeds[slug]
        values = seed.toolbox.values[kind](seed.toolbox.build_world(random.Random(0)))
        assert not any(re.search(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|june)\b", v) for v in values)


def test_a_bare_noun_literal_after_a_noun_takes_an_article():
    """"in the city parcel OC857 is going to" lacks its "the"; "the status of parcel OC857" and
    "track parcel OC857" do not."""
    from factory.queries.wording import with_article

    assert with_article("in the city ", "parcel OC857") == "the parcel OC857"
    assert with_article("the status of ", "parcel OC857") == "parcel OC857"
    assert with_article("track ", "parcel OC857") == "parcel OC857"
    assert with_article("in the city ", "that parcel") == "that parcel"
    assert with_article("in the city ", "Anna Berg") == "Anna Berg"


def test_frames_say_please_once_and_leave_no_dangling_too():
    from factory.queries.frames import FOLLOW_VP, SINGLE, suited

    assert not any("please" in f.lower() or "favour" in f for f in suited(SINGLE, "please sign me up"))
    long = "find the next public holiday in Canada, counting from August 12, 2025"
    assert not any(f.endswith(("too?", "as well.", "as well?")) for f in suited(FOLLOW_VP, long))
    assert "Can you {vp} too?" in suited(FOLLOW_VP, "check the wind in Lyon")
    long = "convert the ceiling of the pay range for that job there into GBP the way payroll would"
    assert not any(f.endswith(("too?", "as well.", "as well?")) for f in suited(FOLLOW_VP, long))
    assert not any(f.startswith(("Kindly", "Don't forget")) for f in (*SINGLE, *FOLLOW_VP))


def test_stilted_phrasings_are_declaration_problems():
    from factory.seeds.checks import STACKED, STILTED

    def refused(text: str) -> bool:
        return any(p.search(text) for p, _ in STILTED)

    for text in ("the listing with the shortest distance from {point}", "the home city of {name}",
                 "the country where {name} makes their home", "the map position of {city}",
                 "the warmest spot among the cities of {country} on {date}", 'turn "{text}" into a proper course code',
                 'the catalogue code of the course written "{text}"'):
        assert refused(text), text
    for text in ("the listing closest to {point}", "the city {name} lives in", "the hottest city in {country} on {date}"):
        assert not refused(text), text
    assert STACKED.search("the date of the next birthday of {name}")
    assert not STACKED.search("the number of bottles of {product} exported from {location}")


def test_values_render_as_people_write_them():
    assert render_value(True) == "on" and render_value(3.0) == "3" and render_value(2.5) == "2.5"
    assert render_value(["a", "b", "c"]) == "a, b and c"
    forms = {render_value("2025-06-14", random.Random(k)) for k in range(40)}
    assert {"2025-06-14", "June 14, 2025", "14 June 2025", "Saturday, June 14, 2025"} == forms
    moments = {render_value("2025-06-14T15:45", random.Random(k)) for k in range(40)}
    assert "3:45 pm on June 14, 2025" in moments and all("15:45" in m or "3:45 pm" in m for m in moments)


def test_question_frames_go_only_before_a_plain_question():
    """"Quick question: I'm sending a parcel to ..." reads wrong: a follow-up frame made for a
    question goes only before an ask that is a question and nothing else."""
    from factory.queries.frames import FOLLOW_QUESTION, FOLLOW_STATEMENT, frame, kind_of

    assert kind_of("what's the UV index in Oslo?") == "question"
    assert kind_of("I'm sending a parcel to Ana. Which city is her office in?") == "statement"
    assert kind_of("record 3 days of leave; what request id comes back?") == "statement"
    assert kind_of("check the UV index in Oslo") == "vp"
    only_for_questions = [f.split("{")[0] for f in set(FOLLOW_QUESTION) - set(FOLLOW_STATEMENT)]
    for k in range(60):
        text = frame(["check the UV index in Oslo", "I'm sending a parcel to Ana. Which city is her office in?"],
                     random.Random(k))
        assert not any(f"{lead}I'm sending" in text for lead in only_for_questions), text


def test_a_doubled_preposition_is_left_for_the_check_to_reject():
    """"the city 12 Elm Road belongs to to Paris" collapsed would ship to the address itself:
    tidying leaves it, and the faithfulness check names it."""
    from factory.checks.faithfulness import text_glitches
    from factory.queries.wording import tidy

    text = tidy("Ship it from the city 12 Elm Road belongs to to Paris.")
    assert "belongs to to Paris" in text
    assert any("doubled word" in g for g in text_glitches(text))
    assert tidy("Check the the forecast.") == "Check the forecast."


def test_a_value_is_named_again_by_how_any_toolbox_writes_its_kind():
    """A textbook's ISBN comes from the education seed, which does not say how ISBNs are
    written; the library seed does, so the book is "that book" again, never "that isbn"."""
    seeds = load_seeds(Path(resource_dir("seeds")))
    education, library = seeds["education"], seeds["library_science"]
    specs = {**education.specs, **library.specs}
    tools = {**education.toolbox.tools, **library.toolbox.tools}
    chain = parse_chain('data0 = get_course_textbook(course_code="ECON201")\n'
                        'data1, data2 = scan_isbn(isbn=data0)\n'
                        'data3, data4 = checkout_book(isbn=data0)\n', specs)
    written = {s.slug: s.toolbox.written for s in (education, library)}
    for k in range(20):
        text = template_query(chain, specs, tools, rng=random.Random(k), written=written).variants["template"]
        assert "isbn" not in text.lower().replace("isbn number", "").replace("with isbn", ""), text


def test_the_model_query_writer_repairs_a_request_about_another_place(weather):
    """A real small model rewrote "the city under the worst warning in the United Kingdom" as
    "London" while the chain is about another city: the writer names the problem in a repair
    request with the draft, and a request still about another place is a reject."""
    from factory.config import resource_dir
    from factory.lm.dspy_bridge import fake_dspy_lm
    from factory.lm.fake import FakeLM, in_prose
    from factory.queries.model_writer import QueryWriter
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, run_chain

    chain = parse_chain('a, t, c = get_severe_weather_alerts(country="United Kingdom")\n'
                        'h, l, s = get_daily_forecast(city=c, date="2025-06-16")\n', weather.specs)
    trace = run_chain(chain, weather.specs, Simulator({"weather": weather}, WorldSetup(toolboxes=["weather"], seed=0)))
    other = "London" if trace.steps[0].outputs["c"] != "London" else "Edinburgh"
    prompts = Path(resource_dir("prompts"))
    writer = QueryWriter((prompts / "query_writer.md").read_text(), (prompts / "query_repair.md").read_text(), [])
    draft = word('a, t, c = get_severe_weather_alerts(country="United Kingdom")\n'
                 'h, l, s = get_daily_forecast(city=c, date="2025-06-16")\n', weather)["template"]
    about_other = (f"[[ ## request ## ]]\nWhat was the weather in {other}, United Kingdom, on June 16, 2025?\n\n"
                   "[[ ## plain_sentences ## ]]\nx\n\n[[ ## completed ## ]]")
    described = ("[[ ## rewritten ## ]]\nHow will June 16, 2025 look in the city under the worst weather warning "
                 "in the United Kingdom?\n\n[[ ## completed ## ]]")
    fake = FakeLM([in_prose(about_other), described])
    written = writer(fake_dspy_lm(fake), chain, draft, [], random.Random(0), None, trace, weather.specs)
    assert written.reason == "" and written.variants["model"].startswith("How will June 16"), written.reason
    repair = fake.requests[1].prompt
    assert f"names '{other}'" in repair and draft in repair
    stubborn = FakeLM([about_other, about_other.replace("## request ##", "## rewritten ##")])
    written = writer(fake_dspy_lm(stubborn), chain, draft, [], random.Random(0), None, trace, weather.specs)
    assert f"names '{other}'" in written.reason


def test_the_model_query_writer_repairs_a_request_that_drops_a_step_of_its_draft():
    """The real 1.5B model rewrote "the calories in a serving of the food to pair with that grape"
    as "the calories in a serving of that grape", and "add 2 bottles to my cellar" as "how much do
    2 bottles sell for": a step the draft names by a word only its tool uses goes back to the
    model, and a request that still drops it is a reject. A step the draft too leaves implicit
    ("the dish that goes well with it") asks for nothing."""
    from factory.checks.faithfulness import unspoken_calls
    from factory.lm.dspy_bridge import fake_dspy_lm
    from factory.lm.fake import FakeLM
    from factory.queries.model_writer import QueryWriter

    food = load_seeds(Path(resource_dir("seeds")))["food_and_beverage"]
    code = ('data0 = get_grape_variety(wine_name="Poggio Alto")\n'
            'data1 = get_food_pairing(variety=data0)\n'
            'data2 = get_dish_calories(dish=data1)\n')
    chain = parse_chain(code, food.specs)
    draft = ("What grape is the wine Poggio Alto made from? Also, look up the calories in a serving of the food to "
             "pair with that grape variety.")
    dropped = "What is the grape variety of Poggio Alto, and what are the calories in a serving of that grape?"
    assert unspoken_calls(chain, dropped, draft, food.specs) == [
        "does not speak of call 2 (get_food_pairing), which the draft asks for in 'look up the calories in a serving "
        "of the food to pair with that grape variety' (as 'food, pair'): keep every step the draft asks for"]
    implicit = draft.replace("food to pair with", "dish that goes well with")
    assert unspoken_calls(chain, dropped.replace("that grape", "the dish that complements it"), implicit, food.specs) == []
    kept = "Which grape is Poggio Alto made from, and how many calories are in a serving of the food that pairs with it?"
    assert unspoken_calls(chain, kept, draft, food.specs) == []
    two_questions = parse_chain('data0 = get_product_manufacturer(product="Cuvee Blanche")\n'
                                'data1, data2 = get_wine_rating(wine_name="Cuvee Blanche")\n'
                                'data3 = get_producer_region(producer=data0)\n', food.specs)
    asked = ("Could you tell me the winery behind the wine Cuvee Blanche? On top of that, find the most recent review "
             "score for that wine and the name of the reviewer. I also need you to look up the wine region of that producer.")
    one_left_out = ("What is the winery that produces Cuvee Blanche? What is the most recent review score for this wine, "
                    "and who wrote it?")  # the real model's: one of the questions is gone
    assert [p.split(",")[0] for p in unspoken_calls(two_questions, one_left_out, asked, food.specs)] == [
        "does not speak of call 3 (get_producer_region)"]
    prompts = Path(resource_dir("prompts"))
    writer = QueryWriter((prompts / "query_writer.md").read_text(), (prompts / "query_repair.md").read_text(), [])
    fake = FakeLM([f"[[ ## request ## ]]\n{dropped}\n\n[[ ## plain_sentences ## ]]\nx\n\n[[ ## completed ## ]]",
                   f"[[ ## rewritten ## ]]\n{kept}\n\n[[ ## completed ## ]]"])
    written = writer(fake_dspy_lm(fake), chain, draft, [], random.Random(0), None, None, food.specs)
    assert written.reason == "" and written.variants["model"] == kept
    assert "does not speak of call 2 (get_food_pairing)" in fake.requests[1].prompt
    stubborn = FakeLM([f"[[ ## request ## ]]\n{dropped}\n\n[[ ## completed ## ]]",
                       f"[[ ## rewritten ## ]]\n{dropped}\n\n[[ ## completed ## ]]"])
    written = writer(fake_dspy_lm(stubborn), chain, draft, [], random.Random(0), None, None, food.specs)
    assert "does not speak of call 2 (get_food_pairing)" in written.reason


def test_a_value_named_again_with_its_currency_is_that_value(weather):
    """The salary feeding a tax calculation and, with its currency, a conversion was described
    twice in different words ("the base salary E-1207 earns a year", then "the annual base
    salary of that employee"); the second time it is "that pay" or "that amount". Another
    value of the same call (the hottest city's temperature) is never "that city"."""
    hr = load_seeds(Path(resource_dir("seeds")))["hr_payroll"]
    code = ('s, c, k = get_annual_salary(employee_id="E-1207")\n'
            't, r = calculate_income_tax(country=k, annual_income=s)\n'
            'v = convert_salary_currency(amount=s, from_currency=c, to_currency="SGD")\n')
    for k in range(12):
        text = word(code, hr, k)["template"]
        assert re.search(r"\b(?:that|the same|this) (?:amount|pay|salary)\b", text), text
    for k in range(12):  # the hottest city's temperature is another value than the city: never "that city"
        text = word(HOTTEST_THEN_WIND + 'f = calculate_feels_like(temperature_c=data1, wind_speed_kmh=data2)\n',
                    weather, k)["template"]
        assert not re.search(r"(?:temperature|feel)\w* (?:of|at|is) (?:that|the same|this) city", text), text


def test_a_name_stated_twice_is_that_thing_the_second_time():
    """A branch named by two calls ("hours at Boston Central Library ... a room at Boston Central
    Library from the time it opens at Boston Central Library") is named in full once, then "that
    library branch"; a second branch in play keeps both names in full."""
    from factory.checks.faithfulness import repeated_names

    library = load_seeds(Path(resource_dir("seeds")))["library_science"]
    same = ('data0, data1 = get_branch_hours(branch="Boston Central Library", date="2025-06-20")\n'
            'data2, data3 = reserve_reading_room(branch="Boston Central Library", start=data0)\n'
            'data4, data5 = get_branch_address(branch="Boston Central Library")\n')
    chain = parse_chain(same, library.specs)
    for k in range(12):
        text = word(same, library, k)["template"]
        assert text.count("Boston Central Library") == 1, text
        assert re.search(r"\b(?:[Tt]hat|[Tt]he same|[Tt]his) library branch\b", text), text
        assert repeated_names(chain, text) == []
    two = ('data0, data1 = get_branch_hours(branch="Boston Central Library", date="2025-06-20")\n'
           'data2, data3 = get_branch_address(branch="London Central Library")\n'
           'data4, data5 = reserve_reading_room(branch="Boston Central Library", start=data0)\n')
    for k in range(12):
        text = word(two, library, k)["template"]
        assert "London Central Library" in text and text.count("Boston Central Library") == 2, text
        assert not re.search(r"(?:that|same|this) library branch", text, re.IGNORECASE), text


def test_an_author_named_again_is_not_called_by_first_name():
    """"the city and year of birth of Ethan Zhang ... by Ethan (2018)": an author is no one the
    asker knows by their first name."""
    library = load_seeds(Path(resource_dir("seeds")))["library_science"]
    author = next(p for s in library.specs.values() for p in s.parameters if p.role == "author")
    tool = next(s for s in library.specs.values() if author in s.parameters)
    from factory.queries.wording import _FIRST_NAME_ROLES

    assert author.role not in _FIRST_NAME_ROLES and "contact" in _FIRST_NAME_ROLES, tool.name


def test_a_name_the_opening_sentences_state_is_not_stated_again():
    """A person a fix-up's context already names in full ("My name is Maria Lopez.") goes by
    their first name in the request itself, as people say it."""
    travel = load_seeds(Path(resource_dir("seeds")))["travel"]
    chain = parse_chain('data0, data1 = book_hotel(hotel_id="HTL-2041", check_in="2025-06-20", nights=2, '
                        'guest_name="Maria Lopez")\n', travel.specs)
    for k in range(6):
        text = template_query(chain, travel.specs, travel.toolbox.tools, context=["My name is Maria Lopez."],
                              rng=random.Random(k), written={"travel": travel.toolbox.written}).variants["template"]
        assert text.count("Maria Lopez") == 1 and re.search(r"\bMaria\b(?! Lopez)", text), text


def test_nouns_for_named_literals():
    from factory.queries.wording import reference_noun

    assert reference_noun("library_branch", None) == "library branch"
    assert reference_noun("person_name", "patient") == "patient" and reference_noun("person_name", None) == "person"
    assert reference_noun("course_code", None) == "course" and reference_noun("passport_number", None) == "passport"
    assert reference_noun("email", "buyer") == "email address"
    assert reference_noun("catalogue_query", None) is None and reference_noun("date", None) is None


# --- readable at every depth ---------------------------------------------------------------

@pytest.fixture(scope="module")
def library():
    return load_seeds(Path(resource_dir("seeds")))


def asked_and_worded(code, seeds, k=0, goal=None):
    """The chain with its asked calls marked as the generator marks them, and its request."""
    specs = {n: s for seed in seeds.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in seeds.values() for n, e in seed.toolbox.tools.items()}
    joint = sorted({kinds for seed in seeds.values() for kinds in seed.toolbox.joint_values})
    written = {slug: seed.toolbox.written for slug, seed in seeds.items()}
    chain = mark_asked(parse_chain(code, specs), entries, specs, joint)
    worded = template_query(chain, specs, entries, joint, random.Random(k), written=written, goal=goal)
    return chain, worded.variants["template"]


MUGA_EXPORTS = (
    'data0 = get_producer_region(producer="Muga")\n'
    'data1, data2 = get_top_selling_wine(location=data0, date="2025-06-08")\n'
    'data3 = get_product_origin(product=data1)\n'
    'data4 = get_export_quantity(location=data3, date="2025-06-08", product=data1)\n'
)


def test_a_description_never_holds_another(library):
    """"How many bottles went out of the country where the bestseller among wines in the wine
    region that is home to Muga is produced?": the region and the wine are asked for in their
    own sentences, and the exports speak of "that wine"."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    for k in range(8):
        chain, text = asked_and_worded(MUGA_EXPORTS, library, k)
        assert [c.asked for c in chain.calls] == [True, True, False, True], text
        assert all(not d.inside for d in walk(chain, chain.asked(), specs, entries).descriptions)
        assert text.count("Muga") == 1 and re.search(r"\b(?:that|the same|this) wine\b", text), text


def test_a_value_no_description_can_state_is_asked_for(library):
    """The cheapest flight "in USD": the seed's descriptions of the cheapest flight never state
    the currency it was priced in, and the request said "the cheapest flight for origin airport
    DXB and ... and currency USD" in the tool's own words (reading 85 #15). The flight is asked
    for in a sentence that states it; with no currency it is described as before."""
    code = ('data0, data1, data2 = find_cheapest_flight(origin_airport="DXB", destination_airport="SIN", '
            'date="2025-06-20"{currency})\n'
            'data3, data4 = book_flight(flight_number=data0, date=data2, passenger_name="Jordan Avery")\n')
    for k in range(6):
        chain, text = asked_and_worded(code.format(currency=', currency="USD"'), library, k)
        assert chain.calls[0].asked and "USD" in text and "origin airport" not in text, text
        chain, text = asked_and_worded(code.format(currency=""), library, k)
        assert not chain.calls[0].asked and "origin airport" not in text, text


def test_that_day_is_never_one_of_a_periods_two_ends(library):
    """"Our project runs from 2025-05-14 until 2025-07-10 ... starting from that day": a reader
    cannot tell which end; the day is named again (reading 25 #30)."""
    code = ('data0 = count_business_days(start="2025-05-14", end="2025-07-10", country="Netherlands")\n'
            'data1 = add_business_days(start="2025-07-10", days=15, country="Netherlands")\n')
    for k in range(12):
        _, text = asked_and_worded(code, library, k)
        assert "that day" not in text and "same day" not in text, text


def test_that_day_never_follows_a_day_another_time_or_year_came_between(library):
    """"... one year before June 24, 2025 ... what's that day looking like?" (reading 30 #33) and
    "the birthday ... the time the text went ... the weekday of that date" (reading 30 #19): a
    reader cannot tell which day is meant, so the day is named or described again."""
    back = ('data0, data1 = get_historical_temperature(city="Amsterdam", date="2025-06-24")\n'
            'data2, data3, data4 = get_daily_forecast(city="Amsterdam", date="2025-06-24")\n')
    sent = ('data0, data1 = get_contact_birthday(name="Tomas Novak")\n'
            'data2, data3 = send_text_message(recipient="Tomas Novak", text="Please send me the address.")\n'
            'data4, data5 = get_weekday(date=data0)\n')
    after = ('data0 = add_business_days(start="2025-08-08", days=5, country="New Zealand")\n'
             'data1 = count_business_days(start="2025-08-08", end="2025-09-02", country="New Zealand")\n'
             'data2, data3 = get_next_public_holiday(country="New Zealand", after="2025-09-02")\n')
    for k in range(8):  # (and "5 working days after August 8 ... between that day and ...": reading 33 #22)
        for code in (back, sent, after):
            _, text = asked_and_worded(code, library, k)
            assert not re.search(r"\bthat (?:day|date)\b", text), text


def test_that_pay_is_never_said_beside_another_pay(library):
    """"The annual salary ... the payslip's gross, tax and net ... that pay in CHF" reads as the
    payslip's pay (reading 34 #27), and so does a salary asked after the payslip (reading 41 #8):
    beside another sum of the same noun, the salary is described again."""
    salary = 's, c, k = get_annual_salary(employee_id="E-1101")\n'
    payslip = 'n, g, t = get_payslip(employee_id="E-1101", month="2024-10")\n'
    convert = 'x = convert_salary_currency(amount=s, from_currency=c, to_currency="CHF")\n'
    for code in (salary + payslip + convert, payslip + salary + convert):
        for k in range(8):
            _, text = asked_and_worded(code, library, k)
            assert not re.search(r"\bthat (?:pay|salary|amount)\b", text), text


def test_a_canonicalised_day_is_not_asked_for_to_keep_the_composed_order(library):
    """"What date and time does 'tonight' mean? Plus, how much daylight ... on that date at
    Olive Heron Roasters": the resolving call moves next to the call taking its day, which keeps
    the nesting shape, and the request speaks of "tonight" only where the daylight is asked."""
    code = ('data0, data1 = resolve_relative_time(expression="tonight")\n'
            'data2, data3, data4 = find_place_by_name(name="Olive Heron Roasters, Milan")\n'
            'data5 = get_daylight_hours(latitude=data3, longitude=data4, date=data1)\n')
    for k in range(6):
        chain, text = asked_and_worded(code, library, k)
        assert [c.tool for c in chain.calls] == ["find_place_by_name", "resolve_relative_time", "get_daylight_hours"]
        assert [c.asked for c in chain.calls] == [False, False, True] and chain.shape() == "3:1>3,2>3", text
        assert "tonight" in text.casefold() and "mean" not in text, text


FEELS_LIKE_IN_THE_HOTTEST_CITY = (
    'data0, data1 = find_hottest_city(country="India", date="2025-06-19")\n'
    'data2, data3 = get_wind_forecast(city=data0, date="2025-06-19")\n'
    'data4 = calculate_feels_like(temperature_c=data1, wind_speed_kmh=data2)\n'
)


def test_another_value_of_a_described_call_is_not_described_again_in_full(library):
    """The hottest high and the wind in the hottest city: the hottest city is asked for, and the
    request says India once ("the wind in that city"), not "the hottest city of India" twice."""
    for k in range(8):
        chain, text = asked_and_worded(FEELS_LIKE_IN_THE_HOTTEST_CITY, library, k)
        assert chain.calls[0].asked, text
        assert text.count("India") == 1, text


SUNSET_WAIT = (
    'data0, data1 = resolve_relative_time(expression="this saturday at 10am")\n'
    'data2, data3 = get_sunrise_sunset(city="Toronto", date=data1)\n'
    'data4, data5 = get_time_between(start=data0, end=data3)\n'
)


def test_a_time_the_user_named_is_said_once_then_referred_to(library):
    """"From this saturday at 10am until sunset in Toronto that day", not the words twice."""
    for k in range(8):
        _, text = asked_and_worded(SUNSET_WAIT, library, k)
        assert text.count("this saturday at 10am") == 1 and re.search(r"\bthat (?:day|date)\b", text), text


def test_a_day_is_that_day_while_it_is_the_last_day_named(library):
    """"... in Lima on June 14? And in Quito on June 20? And the wind in Quito that day?": the
    day named last is "that day" to a reader, even with another day named before it; a day
    named before another is stated again."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    first = r"(?:2025-06-14|June 14, 2025|14 June 2025)"
    for last_city, last_day, again in (("Quito", "2025-06-20", True), ("Lima", "2025-06-14", False)):
        chain = parse_chain('data0, data1 = get_uv_index(city="Lima", date="2025-06-14")\n'
                            'data2, data3 = get_uv_index(city="Quito", date="2025-06-20")\n'
                            f'data4, data5 = get_wind_forecast(city="{last_city}", date="{last_day}")\n', specs)
        for k in range(6):
            text = template_query(chain, specs, entries, rng=random.Random(k)).variants["template"]
            assert ("that day" in text) == again, text
            assert len(re.findall(first, text)) == (1 if again else 2), text


LOW_IN_THE_HOTTEST_CITY = (
    'data0, data1 = find_hottest_city(country="Spain", date="2025-06-14")\n'
    'data2, data3, data4 = get_daily_forecast(city=data0, date="2025-06-20")\n'
)


def test_a_day_goes_before_a_description_it_would_otherwise_follow(library):
    """"The forecast on June 20 for the city that gets hottest in Spain on June 14", never
    "... hottest in Spain on June 14 on June 20": the later day would read as the inner one's."""
    inner, later = r"(?:2025-06-14|June 14, 2025|14 June 2025)", r"(?:\w+day, )?(?:2025-06-20|June 20, 2025|20 June 2025)"
    for k in range(12):
        _, text = asked_and_worded(LOW_IN_THE_HOTTEST_CITY, library, k)
        assert not re.search(rf"{inner},? (?:(?:on|for|from|in|at|by|to|or|after) ){{0,3}}{later}", text), text


def test_a_day_moves_before_the_slot_with_its_preposition():
    assert day_first("the earliest free delivery slot in {city} on or after {date}", "city", "date") == \
        "the earliest free delivery slot on or after {date} in {city}"
    assert day_first("an open slot in {city} from {date} on, please", "city", "date") == \
        "an open slot from {date} on in {city}, please"
    assert day_first("flights from {origin_city} to {destination_city} on {date}", "origin_city", "date") is None
    assert day_first("the low recorded in {city} {date}", "city", "date") == "the low recorded {date} in {city}"
    assert day_first("I'm in {city} on {date}. How clean is the air?", "city", "date") is None  # not "I'm on June 3"
    assert day_first("the clocks in {to_city} when it is {moment} in {from_city}", "to_city", "moment") is None


def test_situations_are_told_from_plain_requests():
    assert situation("I'm planning around {date}. What's already in my calendar that day?") == "I'm planning around {date}."
    assert situation("For the events log, I need the high and the low in {city} on {date}.") == "For the events log"
    assert situation("our site safety officer needs the apparent temperature for the outdoor crews, given {t}")
    assert situation("Cycling across {city} on {date}: what's the average wind speed?")
    assert situation("what's the forecast for {city} on {date}?") is None
    assert situation("which event in my calendar is {mention}? Give me its id.") is None
    assert situation("I'd like to return {order_id}. The reason is {reason}.") is None
    assert situation("For the week of {week_of}, what were the total hours?") is None
    assert situations_in("I was hoping you could check the UV in Oslo. Also, I'm planning a picnic. Will it rain?") == \
        ["I'm planning a picnic."]




A_DAY_OUT = ('data0, data1, data2 = get_daily_forecast(city="Paris", date="2025-06-14")\n'
             'data3, data4 = get_uv_index(city="Paris", date="2025-06-14")\n'
             'data5, data6 = get_wind_forecast(city="Paris", date="2025-06-14")\n')


def test_a_request_says_at_most_one_situation(library):
    """"For an open-air ceremony ... Separately, kite-flying with the kids ... our site safety
    officer needs ...": one person on one occasion says one situation; the other parts take a
    plain phrasing."""
    weather = library["weather"]
    chain = parse_chain(A_DAY_OUT, weather.specs)
    for k in range(40):
        worded = template_query(chain, weather.specs, weather.toolbox.tools, rng=random.Random(k))
        assert sum(situation(phrasing) is not None for _, phrasing in worded.phrasings) <= 1, worded.variants
        assert len(situations_in(worded.variants["template"])) <= 1, worded.variants


def test_a_situation_fits_the_role_of_the_goal(library):
    """A wine lover does not recommend a wine "to a client"."""
    food = library["food_and_beverage"]
    lover = food.toolbox.goals["know a wine's background"]
    code = 'data0, data1 = get_wine_rating(wine_name="Saltbush Creek")\n'
    said = [asked_and_worded(code, library, k, goal=lover)[1] for k in range(40)]
    assert not any(re.search(r"\bclient\b", text) for text in said), said
    assert any(re.search(r"\bclient\b", asked_and_worded(code, library, k)[1]) for k in range(40))
    assert not fits_goal("before I recommend it to a client", lover) and fits_goal("I'm thinking of buying it", lover)


def test_a_time_just_named_is_that_time_and_its_day_that_day(library):
    """"... in Tokyo at 9:30 on June 20? And what time is that time in Paris?": a time named again
    right after is not stated again; the UV's day comes after the Paris time was asked, which may
    fall on another day, so it is named again, not "that day" (reading 30 #19)."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    chain = parse_chain('t, r = get_hourly_forecast(city="Tokyo", when="2025-06-20T09:30")\n'
                        'm, o = convert_time_between_cities(moment="2025-06-20T09:30", from_city="Tokyo", '
                        'to_city="Paris")\n'
                        'u, k = get_uv_index(city="Tokyo", date="2025-06-20")\n', specs)
    for k in range(6):
        text = template_query(chain, specs, entries, rng=random.Random(k)).variants["template"]
        assert len(re.findall(r"9:30|09:30", text)) == 1 and re.search(r"\bthat time\b", text), text
        assert not re.search(r"\bthat day\b", text), text


def test_a_point_stated_once_is_that_location_after(library):
    """"The walk from 41.8812, -87.6322 to the closest cafe to that location", not the point twice."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    joint = sorted({kinds for seed in library.values() for kinds in seed.toolbox.joint_values})
    chain = parse_chain('p, d, pn = find_nearest_place(latitude=41.8812, longitude=-87.6322, category="cafe")\n'
                        'la, lo, c = get_place_location(place_id=p)\n'
                        't, k = estimate_travel_time(from_latitude=41.8812, from_longitude=-87.6322, to_latitude=la, '
                        'to_longitude=lo, mode="walking")\n', specs)
    for k in range(6):
        text = template_query(chain, specs, entries, joint, rng=random.Random(k)).variants["template"]
        assert text.count("41.8812") <= 1 and re.search(r"\b(?:that|the same|this) location\b", text), text


def test_values_of_a_call_asked_for_are_those_values_together(library):
    """"What flights go from Munich to Seattle on June 20? Book Jordan Avery on the first to
    leave of those flights", not the search described again with its day."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    chain = mark_asked(parse_chain(
        'f, d = search_flights(origin_city="Munich", destination_city="Seattle", date="2025-06-20")\n'
        'n, t, e = choose_earliest_flight(flight_numbers=f, date=d)\n'
        'b, s = book_flight(flight_number=n, date=e, passenger_name="Jordan Avery")\n', specs), entries)
    chain = Chain(calls=[c.model_copy(update={"asked": i != 1}) for i, c in enumerate(chain.calls)])
    for k in range(6):
        text = template_query(chain, specs, entries, rng=random.Random(k)).variants["template"]
        assert text.count("Munich") == 1 and re.search(r"\b(?:those|these|the same) flights\b", text), text


def test_what_a_call_finds_about_a_thing_it_is_given_is_that_thing(library):
    """The next slot with the best doctor for a rash in Boston names its doctor: a later part
    still says "that doctor", not the best doctor for a rash in Boston again."""
    specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
    chain = parse_chain('s = match_symptom_to_specialty(symptom="an itchy rash")\n'
                        'd, r, dn = find_top_doctor(specialty=s, city="Boston")\n'
                        't, n = get_next_available_slot(doctor_id=d, day="2025-06-28")\n'
                        'a, b, c, e = get_doctor_details(doctor_id=d)\n', specs)
    chain = Chain(calls=[c.model_copy(update={"asked": i >= 2}) for i, c in enumerate(chain.calls)])
    for k in range(6):
        text = template_query(chain, specs, entries, rng=random.Random(k)).variants["template"]
        assert text.count("Boston") == 1 and re.search(r"\b(?:that|the same|this) doctor\b", text), text


def test_the_asker_named_again_is_me_and_only_where_me_fits():
    """Once the request has said "create one for me: Jordan Avery, ...", the booking is "book
    me on ...", never the name in full again, nor "in the name of me"."""
    from factory.toolbox.user import USER

    seeds = load_seeds(Path(resource_dir("seeds")))
    travel = seeds["travel"]
    code = f'b, s = book_flight(flight_number="AU3888", date="2025-06-18", passenger_name="{USER.name}")\n'
    chain = mark_asked(parse_chain(code, travel.specs), travel.toolbox.tools)
    context = [f"Set up my traveller profile if it's missing (I'm {USER.name}, {USER.email})."]
    for k in range(30):
        text = template_query(chain, travel.specs, travel.toolbox.tools, rng=random.Random(k),
                              context=context).variants["template"]
        assert text.count(USER.name) == 1, text
        assert re.search(r"\bme\b", text.split(")", 1)[1]) and not re.search(r"\b(?:of|name|under|as) me\b", text), text


def test_a_point_whose_latitude_and_longitude_were_asked_is_that_location(library):
    """"What are 48°51'24"N 2°21'08"E in decimal latitude and longitude? Then save the closest
    mall to that location", never "to that latitude": both halves travel on."""
    code = ('la, lo = convert_dms_coordinates(coordinates="48°51\'24\\"N 2°21\'08\\"E")\n'
            'p, d, pn = find_nearest_place(latitude=la, longitude=lo, category="mall")\n'
            'f = save_favourite_place(place_id=p)\n')
    for k in range(8):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"\bth(?:at|ose) (?:latitude|longitude)s?\b", text), text


def test_a_value_is_not_named_after_its_own_noun(library):
    """"If the temperature is that temperature and the wind speed is that wind speed" says
    nothing: a phrasing that names the values by what they are is drawn instead."""
    code = ('c, t = find_hottest_city(country="Japan", date="2025-06-18")\n'
            'w, d = get_wind_forecast(city=c, date="2025-06-18")\n'
            'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)\n')
    for k in range(30):
        chain, _ = asked_and_worded(code, library, k)
        chain = Chain(calls=[c.model_copy(update={"asked": True}) for c in chain.calls])
        specs = {n: s for seed in library.values() for n, s in seed.specs.items()}
        entries = {n: e for seed in library.values() for n, e in seed.toolbox.tools.items()}
        text = template_query(chain, specs, entries, rng=random.Random(k)).variants["template"]
        assert not re.search(r"\b(\w+(?: \w+)?) (?:is|of) that \1\b", text), text
        assert not re.search(r"\bwind\b[^.?!]{0,20}\bthat wind speed\b|\btemperature\b[^.?!]{0,20}"
                             r"(?:'s|\bfor) that temperature\b", text), text


def test_a_part_that_opens_as_a_note_follows_without_a_run_on_connector():
    """"In addition, current local date and time in Lima?" has no verb to join; such a part
    stands on its own ("One more thing: current local date and time in Lima?")."""
    from factory.queries.frames import frame
    note = "current local date and time in Lima?"
    texts = [frame(["check the weather in Lima", note], random.Random(k)) for k in range(60)]
    assert all(not re.search(r"(?:Also|And|Oh, and|In addition|Besides that|Plus|By the way), current", t) for t in texts), texts
    asked = [frame(["check the weather in Lima", "what's the local time in Lima?"], random.Random(k)) for k in range(60)]
    assert any(re.search(r"(?:Also|And|Oh, and|In addition|Besides that|Plus|By the way),? what's", t) for t in asked)


def test_a_description_that_says_an_earlier_value_again_holds_nothing_else(library):
    """"The heat index for that temperature with the wind at the wind strength in that city on
    that day" crowds one sentence: the wind that day is asked for in its own; a description
    whose one argument is said again ("the home region of that producer") stays."""
    hottest = ('c, t = find_hottest_city(country="Japan", date="2025-06-14")\n'
               'w, d = get_wind_forecast(city=c, date="2025-06-14")\n'
               'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)\n')
    for k in range(4):
        chain, text = asked_and_worded(hottest, library, k)
        assert [c.asked for c in chain.calls] == [True, True, True], text
    region = ('m = get_product_manufacturer(product="Oakmont Ridge")\n'
              'r = get_producer_region(producer=m)\n'
              'y = get_harvest_yield(region=r, year=2017)\n')
    chain, text = asked_and_worded(region, library)
    assert [c.asked for c in chain.calls] == [True, False, True], text


def test_a_thing_named_again_in_its_own_sentence_is_it():
    """"bottles of that wine shipped from the country it was made in", not "that wine" twice;
    never a person, a place or a day, never after "of", never when another thing came between."""
    from factory.queries.wording import pronouns

    nouns = {"wine", "day", "patient", "hotel"}
    assert pronouns("bottles of that wine exported on that day from the country that wine was made in.", nouns) == \
        "bottles of that wine exported on that day from the country it was made in."
    for kept in ("the doctor of that patient and the room of that patient",
                 "the sales of that wine and the price of that wine",
                 "that wine in that hotel, and the hotel that wine is served in",
                 "bottles of that wine. And where that wine is made"):
        assert pronouns(kept, nouns) == kept


def test_a_thing_its_ask_already_named_is_not_owned_again_in_a_description(library):
    """"the exports of that wine from the home country of that wine": a description that says
    "of that wine" again gives way to one that lets the second mention be "it"."""
    for k in range(12):
        _, text = asked_and_worded(MUGA_EXPORTS, library, k)
        for sentence in re.split(r"(?<=[.?!]) ", text):
            assert sentence.count("that wine") < 2, text


def test_a_frame_never_says_the_ask_s_first_word_twice():
    """"Could I get you to get the patient number ...?" (reading 49 #9), "Help me out and help me
    ...", "Do me a favour and do ...": the frame leaves the verb to the ask."""
    from factory.queries.frames import frame

    for ask in ("get the patient number we hold for Hannah Rossi", "help me find a hotel in Oslo", "see if it rains"):
        for k in range(200):
            text = frame([ask], random.Random(k)).lower()
            first = ask.split()[0]
            assert len(re.findall(rf"\b{first}\b", text)) == 1, text


def test_a_request_says_each_kind_of_connector_once():
    """"Another thing: ... Another thing: ..." and "And one more: ... One more thing: ..." read
    like a form: every follow-up of one request opens differently."""
    from factory.queries.frames import _connector, frame

    asks = ["what is the price of item SP-1001?", "who sells that item?", "how many are in stock?",
            "where does it ship from?", "what do reviewers say?"]
    for k in range(40):
        text = frame(asks, random.Random(k))
        sentences = re.split(r"(?<=[.?!]) ", text)[1:]
        kinds = [c for c in (_connector(s.split(":")[0] + ": {q}" if ":" in s else s) for s in sentences)
                 if c in ("one more", "also")]
        assert len(kinds) == len(set(kinds)), text


def test_a_value_the_repair_still_drops_is_stated_by_insertion_and_recorded(weather):
    """A small model dropped a literal twice ("does not state 0.65" after the repair): the writer
    states it in one closing sentence and says so; a request with another problem stays a reject."""
    from factory.config import resource_dir
    from factory.lm.dspy_bridge import fake_dspy_lm
    from factory.lm.fake import FakeLM, in_prose
    from factory.queries.model_writer import QueryWriter
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, run_chain

    code = ('a, t, c = get_severe_weather_alerts(country="United Kingdom")\n'
            'h, l, s = get_daily_forecast(city=c, date="2025-06-16")\n')
    chain = parse_chain(code, weather.specs)
    trace = run_chain(chain, weather.specs, Simulator({"weather": weather}, WorldSetup(toolboxes=["weather"], seed=0)))
    prompts = Path(resource_dir("prompts"))
    writer = QueryWriter((prompts / "query_writer.md").read_text(), (prompts / "query_repair.md").read_text(), [])
    dropped = "What will the weather be like in the city under the worst weather warning in the United Kingdom?"
    fake = FakeLM([in_prose(f"[[ ## request ## ]]\n{dropped}\n\n[[ ## plain_sentences ## ]]\n{dropped}\n\n"
                            "[[ ## completed ## ]]"),
                   f"[[ ## rewritten ## ]]\n\"{dropped}\"\n\n[[ ## completed ## ]]"])
    written = writer(fake_dspy_lm(fake), chain, word(code, weather)["template"], [], random.Random(0), None, trace,
                     weather.specs)
    assert written.reason == "" and written.variants["model"] == f"{dropped} Use 2025-06-16 for the date."
    assert written.repairs == ("query writer: stated 2025-06-16 by insertion after the repair",)
    assert "does not state '2025-06-16'" in fake.requests[1].prompt  # the repair was asked with the exact problem
    other = trace.steps[0].outputs["c"]
    leaky = FakeLM([f"[[ ## request ## ]]\nWhat will the weather be like in {other}?\n\n[[ ## plain_sentences ## ]]\n"
                    f"x\n\n[[ ## completed ## ]]", f"[[ ## rewritten ## ]]\nThe weather in {other}?\n\n[[ ## completed ## ]]"])
    written = writer(fake_dspy_lm(leaky), chain, word(code, weather)["template"], [], random.Random(0), None, trace,
                     weather.specs)
    assert written.reason.startswith("query writer: after a repair the request still") and not written.repairs


def test_a_request_its_chain_author_wrote_is_kept_without_a_call_when_it_passes(weather):
    from factory.config import resource_dir
    from factory.lm.dspy_bridge import fake_dspy_lm
    from factory.lm.fake import FakeLM
    from factory.queries.model_writer import QueryWriter

    chain = parse_chain('a, t, c = get_severe_weather_alerts(country="United Kingdom")\n', weather.specs)
    prompts = Path(resource_dir("prompts"))
    writer = QueryWriter((prompts / "query_writer.md").read_text(), (prompts / "query_repair.md").read_text(), [])
    fake = FakeLM(["[[ ## request ## ]]\nAny severe weather alerts in the United Kingdom?\n\n[[ ## plain_sentences ## ]]"
                   "\nAny severe weather alerts in the United Kingdom?\n\n[[ ## completed ## ]]"])
    own = "Are there severe weather warnings for the UK right now? I mean the United Kingdom."
    written = writer(fake_dspy_lm(fake), chain, own, [], random.Random(0), own=True)
    assert written.variants["model"] == own and not fake.requests
    written = writer(fake_dspy_lm(fake), chain, "Are there severe weather warnings right now?", [], random.Random(0),
                     own=True)  # drops the country: the model writes the request
    assert written.variants["model"] == "Any severe weather alerts in the United Kingdom?" and len(fake.requests) == 1


def test_a_situation_is_said_of_what_the_person_names_never_of_a_found_value(library):
    """"My sister just landed in {city}" reads for Lisbon, never for "the city nearest to me":
    a phrasing whose situation holds a nested value is drawn only when no plain one is left."""
    code = ('la, lo, c = get_my_location()\n'
            'n, k, d = get_nearest_city(latitude=la, longitude=lo)\n'
            't = get_local_time_in(city=n)\n')
    texts = [asked_and_worded(code, library, k)[1] for k in range(60)]
    assert not [t for t in texts if re.search(r"sister|supplier|call someone", t)]


def test_a_value_asked_for_is_that_thing_when_taken_again(library):
    """"Which of those hotels is cheapest ...? Book that hotel", never "book the cheapest of the
    hotels listed in Berlin for 5 nights from June 25" again: the hotel's id and its name, both
    found by the comparison, are one hotel, not two things that make "that hotel" ambiguous."""
    code = ('ids, names = search_hotels(city="Berlin")\n'
            'h, total, day, n, name = compare_hotel_prices(hotel_ids=ids, check_in="2025-06-25", nights=5)\n'
            'b, out = book_hotel(hotel_id=h, check_in=day, nights=n, guest_name="Jordan Avery")\n')
    for k in range(12):
        chain, text = asked_and_worded(code, library, k)
        assert all(call.asked for call in chain.calls), chain
        assert text.count("Berlin") == 1 and re.search(r"\bthat hotel\b", text), text
        assert len(re.findall(r"\b(?:cheapest|best-priced|lowest|best-value|least)\b", text)) == 1, text


def test_a_day_is_said_once_in_a_phrase_that_holds_a_description_of_the_same_day(library):
    """"The air quality next Monday in the hottest city in China that day", not "... in the
    hottest city in China on that date": the day moved before the description is the
    description's day too, and "that day" says so (without it a reader asks "hottest when?"; a
    trailing "then" read as a loose end)."""
    code = ('d = resolve_forecast_date(expression="next Monday")\n'
            'c, t = find_hottest_city(country="China", date=d)\n'
            'a, cat, pol = get_air_quality(city=c, date=d)\n')
    flight = ('dep, arr, c, airline = get_flight_details(flight_number="AU7010", date="2025-06-27")\n'
              'hi, lo, sky = get_daily_forecast(city=c, date="2025-06-27")\n')
    moved = 0
    for k in range(12):
        for chain_code in (code, flight):
            _, text = asked_and_worded(chain_code, library, k)
            assert not re.search(r"\b(?:on|for) that (?:day|date)\b", text), text
            moved += bool(re.search(r"(?:next Monday|June|2025-06-27) (?:in|for) the", text))
            assert not re.search(r"next Monday (?:in|for) the hottest [a-z ]+ in China(?! that day)", text), text
            assert not re.search(r"\bthen[,.?]", text), text
    assert moved >= 12


def test_the_day_a_call_was_just_asked_about_is_that_day(library):
    """"When does the branch open and close on 22 June 2025? ... a reading room from the hour it
    opens on that day", not the date written out again in the next sentence."""
    code = ('b, s = locate_book(title="Foundations of Data Structures")\n'
            'o, c = get_branch_hours(branch=b, date="2025-06-22")\n'
            'r, n = reserve_reading_room(branch=b, start=o, hours=2)\n')
    for k in range(12):
        chain, text = asked_and_worded(code, library, k)
        assert chain.calls[1].asked  # its closing time is for the person
        assert len(re.findall(r"June 22|22 June|2025-06-22", text)) == 1, text


def test_a_moment_a_call_finds_is_not_read_off_a_clock(library):
    """"What's the date and time in Zurich at the moment it's the local start time of the coffee
    with Chloe?" is stilted: a phrasing that reads the slot as a clock ("when it's {when}") is
    taken for a moment written out, one that converts a described moment otherwise."""
    code = ('e, s, title = find_next_event_with(person="Chloe Martin")\n'
            't, start, city, people = get_event_details(event_id=e)\n'
            'm = convert_time_between_cities(moment=start, from_city=city, to_city="Zurich")\n')
    described = 0
    for k in range(16):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"\b(?:it's|it is|set for|scheduled for) the\b", text), text
        described += "start time of" in text or "starts there" in text
    assert described >= 8


def test_a_period_is_said_once_in_a_part(library):
    """"The yearly tax on the base pay of E-1459 per year" says the year twice: a phrasing and a
    description that say it once are drawn instead."""
    code = ('s, cur, c = get_annual_salary(employee_id="E-1459")\n'
            't, r = calculate_income_tax(country=c, annual_income=s)\n')
    period = r"\b(?:yearly|annual|annually|(?:a|per|each|every) year)\b"
    for k in range(20):
        _, text = asked_and_worded(code, library, k)
        assert all(len(re.findall(period, part)) <= 1 for part in re.split(r"(?<=[.?!]) ", text)), text


def test_a_description_does_not_open_a_relative_clause(library):
    """"Tally the bottles of that wine that the country it comes from sent overseas": where a
    slot opens a clause ("{product} that {location} sent"), a described value takes another phrasing."""
    for k in range(20):
        _, text = asked_and_worded(MUGA_EXPORTS, library, k)
        assert not re.search(r"\b(?:that|which) the (?:country|nation)\b", text), text


def test_a_description_is_not_fronted_before_the_question(library):
    """"Right now in the city that contact lives in, what's the date and time?" puts a described
    place first; "Right now in Lima, what's the date and time?" reads well, so only a value goes there."""
    code = ('c, country = get_contact_city(name="Ingrid Larsen")\n'
            't = get_local_time_in(city=c)\n')
    for k in range(24):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"(?:^|[.?!] )Right now in the\b", text), text


def test_one_of_two_values_of_a_kind_is_never_said_again_by_its_noun(library):
    """A band's floor and ceiling are both pay: "convert that pay into NZD" would not say which,
    so the ceiling is described ("the top of that band ...")."""
    code = ('t = normalize_job_title(title_text="CPA")\n'
            'lo, hi, cur = get_salary_band(job_title=t, country="Argentina")\n'
            'n = convert_salary_currency(amount=hi, from_currency=cur, to_currency="NZD")\n')
    for k in range(12):
        _, text = asked_and_worded(code, library, k)
        assert "that pay" not in text and "that salary" not in text, text
    assert tidy('Text them: "Please send me the address.". What id?') == 'Text them: "Please send me the address." What id?'
    assert tidy("which hotel among those hotels is cheapest") == "which of those hotels is cheapest"


def test_an_ask_with_its_own_lead_in_follows_without_a_colon_connector():
    """"And one more: quick check: is that place open ...": two lead-ins in a row (reading 26 #24)."""
    from factory.queries.frames import frame

    asks = ["give me the details of place PL-1", "quick check: is that place open around 10:30, and until what time?"]
    for k in range(40):
        text = frame(asks, random.Random(k))
        assert not re.search(r": [^.?!]{0,30}quick check:", text, re.IGNORECASE), text


def test_an_ask_with_its_own_subject_ends_as_a_sentence():
    from factory.seeds.checks import unended

    assert unended("for a valuation memo, I need the market cap of {symbol}[ stated in {currency}]")
    assert unended("I need some quiet: turn {on} do-not-disturb")
    assert unended('get a text to {recipient} reading "{text}"; I need its id and the time it was sent')
    assert not unended("for a valuation memo, I need the market cap of {symbol}[ stated in {currency}].")
    assert not unended("get the market capitalisation of {symbol}[ in {currency}]")


def test_a_greeting_leaves_an_acronym_as_it_is():
    from factory.queries.frames import greet

    greeted = {greet(text, random.Random(k)) for k in range(200) for text in ("IATA code of Heathrow?", "What's on today?")}
    assert "Hello, IATA code of Heathrow?" in greeted and "Hello, what's on today?" in greeted


def test_a_thing_is_looked_up_before_it_is_acted_on(library):
    """"Book me on flight NW8701 ... I'd also like the departure and arrival times, destination
    and airline of that flight": nobody books a flight before knowing where it goes (reading 56
    #27). The booking is moved after the lookup of the same flight, and asked last."""
    code = ('s, d, g = get_flight_status(flight_number="NW8701", date="2025-06-22")\n'
            'b, t = book_flight(flight_number="NW8701", date="2025-06-22", passenger_name="Jordan Avery")\n'
            'x, y, z, w = get_flight_details(flight_number="NW8701", date="2025-06-22")')
    for k in range(5):
        chain, query = asked_and_worded(code, {"travel": library["travel"]}, k)
        assert [c.tool for c in chain.calls] == ["get_flight_status", "get_flight_details", "book_flight"]
        assert query.lower().rfind("book") > query.lower().find("airline"), query


def test_a_price_found_is_not_money_the_person_converts(library):
    """"If I converted the live quote for that stock into AED today, what would I end up with":
    a found price is not money in hand (reading 56 #1); that phrasing is for an amount stated."""
    code = ('c, h, l = get_portfolio_summary()\n'
            'p, cur = get_stock_quote(symbol=l)\n'
            'a, r = convert_currency_amount(amount=p, from_currency=cur, to_currency="AED")')
    for k in range(40):
        _, query = asked_and_worded(code, {"finance_stocks": library["finance_stocks"]}, k)
        assert "if I converted the" not in query, query


def test_that_thing_is_not_said_after_a_list_of_its_kind(library):
    """"Which courses are required before HIST201? ... when is the final exam of that course?"
    reads as the exam of the one prerequisite too (reading 57 #37): the course is named again."""
    code = ('p = get_course_prerequisites(course_code="HIST201")\n'
            's, b, d = get_exam_schedule(course_code="HIST201")')
    for k in range(6):
        _, query = asked_and_worded(code, {"education": library["education"]}, k)
        assert "that course" not in query and query.count("HIST201") == 2, query


def test_no_greeting_opens_on_a_quotation():
    """'Hello, "narita": which hotels ...' reads as if the greeting were quoted (reading 54 #9)."""
    from factory.queries.frames import greet

    greeted = {greet(text, random.Random(k)) for k in range(200) for text in ('"narita": which hotels match?', "Which hotels?")}
    assert "Hello, which hotels?" in greeted and greeted >= {'"narita": which hotels match?'}
    assert not any(g.endswith('"narita": which hotels match?') and not g.startswith('"') for g in greeted)


def test_the_present_is_said_once_and_no_where_clause_follows_at(library):
    """"What's the weather like right now at where I am right now?" says "right now" twice and
    puts a clause after "at" (reading 54 #21): another phrasing or description is taken."""
    code = ('la, lo = get_current_location()\n'
            't, s, c = get_weather_by_coordinates(latitude=la, longitude=lo)')
    seeds = {slug: library[slug] for slug in ("weather", "phone_assistant")}
    for k in range(40):
        _, query = asked_and_worded(code, seeds, k)
        assert len(re.findall(r"right now|at the moment|currently|at present", query, re.IGNORECASE)) <= 1, query
        assert not re.search(r"\b(?:at|in|of|for|on) where\b", query), query
    from factory.queries.wording import _SAID_TWICE

    assert _SAID_TWICE.search("check the current conditions at my current location")  # reading 58 #19
    assert _SAID_TWICE.search("the local time in Melbourne for the local start time of that event")  # reading 57 #3
    assert not _SAID_TWICE.search("the current conditions where I am")


@pytest.mark.parametrize("pattern, text, clash", [
    # a day in the person's words never follows a preposition
    ("PREPOSITION_CLASH", "the high in Hong Kong one year before in a week", True),
    ("PREPOSITION_CLASH", "3 working days from in 3 days", True),
    ("PREPOSITION_CLASH", "the high in Hong Kong in a week, and one year before that", False),
    ("PREPOSITION_CLASH", "the temperature range in Osaka on the same day one year prior to a week ago", True),  # reading 68 #37
    ("PREPOSITION_CLASH", "the temperature range in Osaka a week ago", False),
    # a past day is not asked of in the present
    ("TENSE_CLASH", "Are offices in Australia closed for a public holiday a week ago?", True),
    ("TENSE_CLASH", "Thanks. Is yesterday a public holiday in France?", True),
    ("TENSE_CLASH", "Was yesterday a public holiday in France? Is it sunny today?", False),
    ("TENSE_CLASH", "What was the high in Oslo 3 days ago?", False),
    ("TENSE_CLASH", "tell me which city in China has the highest temperature a week ago", True),  # reading 78 #18
    ("TENSE_CLASH", "which city had the highest temperature a week ago, and what has it been since?", False),
    ("TENSE_CLASH", "how many business days are there in Germany between last Friday and June 30?", False),
])
def test_a_day_in_the_person_s_words_reads_as_a_day(pattern, text, clash):
    from factory.queries import wording

    assert (getattr(wording, pattern).search(text) is not None) is clash


def test_a_person_goes_by_what_their_name_is_of():
    """An employee's manager is "that manager", never "that employee" beside employee E-1459,
    which read as the employee (reading 35 #38, reading 38 #12)."""
    from factory.queries.wording import noun_of
    from factory.records import Output

    manager = Output(name="manager_name", type="str", description="the manager's full name", kind="person_name",
                     role="employee")
    teammates = Output(name="teammates", type="list[str]", description="names", kind="person_name", role="employee")
    assert noun_of([manager]) == "manager" and noun_of([teammates]) == "employees"


def test_a_plan_is_never_said_of_a_past_day():
    """"We're shooting an outdoor wedding in Zurich on May 18, 2025" with today June 13 (reading
    38 #19): a situation that is a plan takes a day still to come."""
    seed = load_seeds(Path(resource_dir("seeds")))["time_and_date"]
    code = 'r, s = get_sunrise_sunset(city="Zurich", date="{day}")'
    past = {word(code.format(day="2025-05-18"), seed, k)["template"] for k in range(300)}
    future = {word(code.format(day="2025-06-28"), seed, k)["template"] for k in range(300)}
    assert not any("we're shooting" in text.lower() for text in past)
    assert any("we're shooting" in text.lower() for text in future)


def test_a_call_spoken_of_before_says_its_one_place_as_there(library):
    """"How low and how high can pay go for that job in the Netherlands? ... the floor of the pay
    range for that job there", not "in the Netherlands" twice (reading 36 #3, reading 42 #8)."""
    code = ('b, t, c = get_salary_band(job_title="Data Scientist", country="Netherlands")\n'
            'x = convert_salary_currency(amount=b, from_currency=c, to_currency="NZD")\n')
    for k in range(8):
        _, text = asked_and_worded(code, library, k)
        assert len(re.findall(r"\bNetherlands\b", text)) == 1, text


def test_a_sum_is_known_by_its_kind_its_name_or_its_description():
    """A conversion's "converted amount" is a sum, so "that amount" after it would not say which
    (reading 45 #20); its rate is none."""
    from factory.queries.wording import _is_money
    from factory.records import Output

    assert _is_money(Output(name="converted", type="float", description="the converted amount (rounded to cents)."))
    assert not _is_money(Output(name="rate", type="float", description="the units of the target currency one buys."))
    assert not _is_money(Output(name="distance_km", type="float", description="the distance (km)."))


@pytest.mark.parametrize("code, never", [
    # the nearest cafe around where I am ... "the driving time from that location": the cafe has
    # a location too (reading 48 #15)
    ('la, lo, c = get_my_location()\n'
     'p, d, n = find_nearest_place(latitude=la, longitude=lo, category="cafe")\n'
     'm, k = estimate_travel_time(from_latitude=la, from_longitude=lo, to_latitude=34.0553, '
     'to_longitude=-118.2461, mode="driving")\n', "that location"),
    # "which executive is responsible for that department ... the personnel number of that
    # manager": the executive manages too (reading 49 #26)
    ('d, t, m, h = get_employee_profile(employee_id="E-1893")\n'
     'n, e = get_department_head(department=d)\n'
     'i = find_employee_id(full_name=m)\n', "that manager"),
    # today's date ... the public holidays in China in 2025 ... "the hottest city in China on
    # that date" read as one of the holidays (reading 49 #18)
    ('n, d, c = get_current_local_datetime()\n'
     'h = list_public_holidays(country="China", year=2025)\n'
     'x, t = find_hottest_city(country="China", date=d)\n', "that date|that day"),
])
def test_a_value_another_has_been_spoken_of_since_is_described_again(library, code, never):
    """A thing said again by a noun that something spoken of since also goes by is described
    again, not "that" noun, which a cold reader took for the other."""
    for k in range(8):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(rf"\b(?:{never})\b", text), text


@pytest.mark.parametrize("code, said", [
    # a branch's hours on the new due date, then a room from when it opens on "that date", not
    # the due date described again in full (reading 49 #2)
    ('d = renew_loan(loan_id="LN-30001")\n'
     'o, c = get_branch_hours(branch="Chicago Lakeside Branch", date=d)\n'
     'r, b = reserve_reading_room(branch="Chicago Lakeside Branch", start=o)\n', r"\bLN-30001\b|that loan"),
    # "combine clarithromycin with that drug" cannot mean clarithromycin: the drug on the last
    # prescription is not described twice (reading 49 #9)
    ('p = find_patient_id(full_name="Hannah Rossi")\n'
     'd, q, i, n = get_latest_prescription(patient_id=p)\n'
     'c, m = get_drug_information(drug_name=d)\n'
     's, a = check_drug_interaction(first_drug="clarithromycin", second_drug=d)\n', r"prescri"),
])
def test_a_value_nothing_else_goes_by_is_described_once(library, code, said):
    """A value still the only one of its noun is "that" noun the second time: its description
    (here, what it says) is said once."""
    for k in range(8):
        _, text = asked_and_worded(code, library, k)
        assert len(re.findall(said, text)) == 1, text


def test_a_situation_of_the_moment_opens_no_request_about_other_days(library):
    """"I'm about to hang laundry out in Madrid" before the air quality on Wednesday and the rain
    on Monday morning (reading 49 #32): a situation of now only where every part is now."""
    code = ('t, h, s = get_current_weather(city="Madrid")\n'
            'a, c, p = get_air_quality(city="Madrid", date="2025-06-18")\n')
    alone = {asked_and_worded(code.split("\n")[0], library, k)[1] for k in range(200)}
    assert any("about to" in text or "deciding whether" in text for text in alone)
    for k in range(200):
        _, text = asked_and_worded(code, library, k)
        assert "about to" not in text and "deciding whether" not in text, text


def test_a_payroll_month_is_written_as_people_write_it():
    assert render_value("2025-01", random.Random(0)) == "January 2025"
    assert render_value("2025-01") == "2025-01"
    assert found("january 2025", normalise("What did E-1 get paid for January 2025?"))
    assert any(found(form, normalise("paid for January 2025")) for form in value_groups("2025-01")[0])


def test_a_day_goes_before_a_place_something_comes_out_of(library):
    """"The exports of that wine out of the country where it is produced on that day" (reading
    50 #11): the day moves before "out of", as before "in" or "from"."""
    assert day_first("look up the exports of {product} out of {location} on {date}", "location", "date") == \
        "look up the exports of {product} on {date} out of {location}"


def test_no_situation_opens_a_question_about_a_found_value(library):
    """"I'm comparing prices across borders. What is the cash dividend per share of ... in CNY"
    (reading 50 #3): a situation is written for the value a person names."""
    code = ('s = lookup_ticker_symbol(company="Dutch Harbour Chemicals")\n'
            'y, d, c = get_dividend_yield(symbol=s)\n'
            'v, r = convert_currency_amount(amount=d, from_currency=c, to_currency="CNY")\n')
    for k in range(40):
        _, text = asked_and_worded(code, library, k)
        assert not situations_in(text), text


def test_a_person_is_never_called_by_a_noun_the_request_did_not_use(library):
    """"Whoever runs the Human Resources department ... the workplace of that head" (reading 51
    #31): "that person", unless the request called them the head."""
    code = ('n, e = get_department_head(department="Human Resources")\n'
            'i = find_employee_id(full_name=n)\n'
            'a, c, k = get_employee_office(employee_id=i)\n')
    for k in range(30):
        _, text = asked_and_worded(code, library, k)
        if "that head" in text:
            assert re.search(r"\bhead\b", text.split("that head")[0]), text


def test_a_request_says_while_at_it_once():
    """"And while we're at it, ... While you're at it, ..." back to back (reading 51 #29)."""
    from factory.queries.frames import frame

    asks = ["check the weather in Oslo", "book a table for two", "find a taxi", "call my sister", "send the invoice"]
    for k in range(200):
        assert len(re.findall(r"at it\b", frame(asks, random.Random(k)))) <= 1


def test_nothing_follows_a_description_that_would_read_as_its_own(library):
    """"Which weekday the day Aisha Okafor celebrates their next birthday falls on", "every book
    by the writer of the book with ISBN 978... in the catalogue" (reading 52 #20, #29), "...
    that the library holds" (reading 50 #33):
    another phrasing is taken, where the description ends its part."""
    from factory.queries.wording import _CLAUSE_NEXT

    assert _CLAUSE_NEXT.match(" falls on and whether it's a weekend")
    assert _CLAUSE_NEXT.match(" in the catalogue, latest first")
    assert _CLAUSE_NEXT.match(" that the library holds")
    assert not _CLAUSE_NEXT.match(" on {date}") and not _CLAUSE_NEXT.match(", and is that a weekend?")
    assert not _CLAUSE_NEXT.match(" and tell me its title")
    assert _CLAUSE_NEXT.match(' by text, "Thanks.", and let me know the message id')  # reading 68 #18
    assert _CLAUSE_NEXT.match(" in that city, with its address")  # reading 70 #28
    assert _CLAUSE_NEXT.match(" for me: decimal coordinates plus the nation it's in")  # reading 71 #10
    assert not _CLAUSE_NEXT.match(" in that time, and how long")
    code = ('t, a, y, p = get_book_details(isbn="9781581894844")\n'
            'b = list_books_by_author(author=a)\n')
    for k in range(80):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"ISBN \d+ (?:that|which|who|in the catalogue)\b", text), text


def test_a_description_is_not_set_off_by_a_comma(library):
    """'I want "Call with the bank" in San Francisco, my earliest free window of 120 minutes on
    10 July 2025' (reading 68 #13): a phrasing that says the slot after a comma is passed over
    when the slot is a description."""
    code = ('s, m = find_free_slot(date="2025-07-10", duration_minutes=120)\n'
            'e = create_event(title="Call with the bank", start=s, duration_minutes=m, city="San Francisco")\n')
    for k in range(60):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"San Francisco, (?:my|the) ", text), text


def test_no_relative_clause_follows_a_thing_said_again(library):
    """"Something to eat with Cabernet Sauvignon ... a wine made from that grape variety that
    comes from Australia" (reading 68 #25): the clause reads as the variety's, so another
    phrasing is taken."""
    code = ('d = get_food_pairing(variety="Cabernet Sauvignon")\n'
            'w = find_wines_by_variety(variety="Cabernet Sauvignon", country="Australia")\n')
    for k in range(60):
        _, text = asked_and_worded(code, library, k)
        assert not re.search(r"that (?:grape )?variety that\b", text), text


def food_chain(code):
    """The food seed and a chain of its tools."""
    food = load_seeds(Path(resource_dir("seeds")))["food_and_beverage"]
    return food, parse_chain(code, food.specs)


def test_a_rewritten_request_that_no_longer_asks_for_a_change_goes_back():
    """The real 1.5B model rewrote "put 2 bottles of that wine in my cellar; how many of that
    wine do I have afterwards?" as "... the number of bottles currently in the cellar. Two
    bottles are in the cellar.": the gold still added them. An action the draft asks for must
    be asked for in words that ask it ("put", "add", "log" for add_wine_to_cellar)."""
    from factory.checks.faithfulness import unspoken_calls

    food, chain = food_chain('data0, data1 = get_wine_rating(wine_name="Vigna Nera")\n'
                             'data2 = get_wine_price(wine_name="Vigna Nera", currency="CHF")\n'
                             'data3 = add_wine_to_cellar(wine_name="Vigna Nera", bottles=2)\n')
    draft = ("Find the most recent review score for the wine Vigna Nera and the name of the reviewer. Find the bottle "
             "price of that wine in CHF. One more thing: put 2 bottles of that wine in my cellar; how many of that "
             "wine do I have afterwards?")
    stated = ("Find the most recent review score for Vigna Nera, the name of the reviewer, the bottle price in CHF, "
              "and the number of bottles currently in the cellar. Two bottles are in the cellar.")
    assert unspoken_calls(chain, stated, draft, food.specs) == [
        "does not ask to add (call 3, add_wine_to_cellar) as the draft does in 'put 2 bottles of that wine in my "
        "cellar': a change the request does not ask for is one the user does not want"]
    asked = stated.replace("Two bottles are in the cellar.", "Add two bottles to it first.")
    assert unspoken_calls(chain, asked, draft, food.specs) == []
    refused = stated.replace("Two bottles are in the cellar.", "Please note: I will not add 2 bottles to my cellar "
                             "at this time.")  # the real model's, kept before this test (reading 88 #3)
    assert [p.split(" (")[0] for p in unspoken_calls(chain, refused, draft, food.specs)] == ["does not ask to add"]


@pytest.mark.parametrize("request_text, problem", [
    # a real 1.5B model's rewrites of Food and Beverage drafts, kept before these checks (reading 82)
    ("The grape of Poggio Alto is the variety that should be looked up, and the calories in a serving of this grape "
     "variety can be found by pairing it with another food.", "asks for nothing"),
    ("What are the wines made from Cabernet Sauvignon in France, and what is the calorie content of one serving of "
     "the best-selling pairing for that grape variety?", "picks by 'best-selling', which the draft does not"),
])
def test_a_rewritten_request_that_asks_nothing_or_picks_by_a_new_criterion_goes_back(request_text, problem):
    from factory.queries.model_writer import QueryWriter

    food, chain = food_chain('data0 = find_wines_by_variety(variety="Cabernet Sauvignon", country="France")\n'
                             'data1 = get_food_pairing(variety="Cabernet Sauvignon")\n'
                             'data2 = get_dish_calories(dish=data1)\n')
    draft = ("Please could you show me the wines made from Cabernet Sauvignon in France and tell me how many calories "
             "one serving of the classic pairing for that grape variety has?")
    writer = QueryWriter("", "", [])
    assert problem in "; ".join(writer.problems(chain, request_text, [], set(), specs=food.specs, draft=draft))
    assert not [p for p in writer.problems(chain, draft.replace("Please could you", "Can you"), [], set(),
                                           specs=food.specs, draft=draft) if "nothing" in p or "picks by" in p]


@pytest.mark.slow
def test_every_offline_request_asks_for_something(mixed_run):
    """The test a model's request meets holds every way the offline writer words one (4,000
    of them from two 1,000-instance runs passed it, when it was written)."""
    from factory.checks.faithfulness import asks_nothing

    requests = [text for instance in mixed_run.instances for text in instance.query_variants.values()]
    assert len(requests) >= 300 and [text for text in requests if asks_nothing(text)] == []


def test_the_one_question_of_a_rewritten_request_may_change_its_words_but_not_what_it_asks_for():
    """The real 1.5B model rewrote "look up the calories in a serving of the dish that goes well
    with that grape variety" as "what is one portion of its food that pairs with this grape?":
    the one question may be asked in other words, but the value the draft names must stay."""
    from factory.checks.faithfulness import unspoken_calls

    food, chain = food_chain('data0 = get_grape_variety(wine_name="Poggio Alto")\n'
                             'data1 = get_food_pairing(variety=data0)\n'
                             'data2 = get_dish_calories(dish=data1)\n')
    draft = ("What variety is the wine Poggio Alto? Also, look up the calories in a serving of the dish that goes well "
             "with that grape variety.")
    portion = "What is the grape variety used in Poggio Alto, and what is one portion of its food that pairs with this grape?"
    assert unspoken_calls(chain, portion, draft, food.specs) == [
        "does not ask for what call 3 (get_dish_calories) finds, which the draft asks for in 'look up the calories in "
        "a serving of the dish that goes well with that grape variety' (as 'calori, serv'): ask for what the draft "
        "asks for"]
    kept = portion.replace("what is one portion of its food", "how many calories are in a serving of the food")
    assert unspoken_calls(chain, kept, draft, food.specs) == []


def test_a_step_the_draft_asks_for_in_another_form_of_its_word_stays_asked():
    """Reading 84 #3: "who produces the wine printed as 'los andes'" was rewritten as "What is
    the wine called 'Los Andes' and from what country does it come?", and the producer the gold
    still needs was gone: "produces" is the producer's word too."""
    from factory.checks.faithfulness import unspoken_calls

    food, chain = food_chain('data0 = resolve_wine_name(name="los andes")\n'
                             'data1 = get_product_manufacturer(product=data0)\n'
                             'data2 = get_product_origin(product=data0)\n')
    draft = ("I'd like to know who produces the wine printed as 'los andes' on my receipt. I'd also like you to look "
             "up which country that wine is from.")
    dropped = 'What is the wine called "Los Andes" and from what country does it come?'
    assert [p.split(" which")[0] for p in unspoken_calls(chain, dropped, draft, food.specs)] == [
        "does not speak of call 2 (get_product_manufacturer),"]
    kept = 'Who makes the wine called "Los Andes", and from what country does it come?'
    assert unspoken_calls(chain, kept, draft, food.specs) == []
    # ... and the rewrite may keep the draft's own form: the real model's "Who produces it?" and
    # "... on my receipt, and which country it is from" went back three times in one run
    for kept in ('What is the full name of "los andes" in the wine catalog? Who produces it? Which country is it from?',
                 "I'd like to know who produces the wine printed as 'los andes' on my receipt, and which country it "
                 "is from."):
        assert unspoken_calls(chain, kept, draft, food.specs) == [], kept


def test_a_format_marker_the_model_wrote_into_its_request_is_cut():
    """"I'd like to know who produces the wine ... on my receipt. [[ ## completed ## ]]": a real
    1.5B model's request."""
    from factory.queries.model_writer import field_text

    assert field_text(' "Who produces it?\n [[ ## completed ## ]]"') == "Who produces it?"
    assert field_text("Who produces it? [[ ## plain_sentences ## ]] Who produces it.") == "Who produces it?"
    assert field_text("Who  produces\nit?") == "Who produces it?"
    # an answer the format's parser could not split comes whole: its opening marker is the field's
    assert field_text('[[ ## request ## ]]\n"Who produces it?"\n\n[[ ## completed ## ]]') == "Who produces it?"
