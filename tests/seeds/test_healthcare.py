"""Behaviour of every Healthcare tool, including its error cases and state changes."""

import re

import pytest

from factory.seeds.checks import library_pool
from tests.seeds.toolbox_helpers import ToolboxSession

SLUG = "healthcare"


@pytest.fixture(scope="module")
def hc():
    return ToolboxSession(SLUG)


@pytest.fixture
def fresh():
    return ToolboxSession(SLUG)


def test_patient_lookup_and_profile(hc):
    patient_id = hc.ok("find_patient_id", full_name="Maria Lopez")
    assert patient_id.startswith("P-") and hc.world.patients[patient_id]["name"] == "Maria Lopez"
    assert hc.ok("find_patient_id", full_name="maria  lopez") == patient_id
    assert "no patient named" in hc.error("find_patient_id", full_name="Nobody Atall")
    birth, city, phone, email = hc.ok("get_patient_profile", patient_id=patient_id)
    assert birth < "2021" and city in hc.values("city") and phone.startswith("+")
    assert email == "maria.lopez@example.com"
    assert "unknown patient id" in hc.error("get_patient_profile", patient_id="P-1")


def test_a_prescription_is_written_by_a_doctor_who_prescribes_that_drug(hc):
    """Heart drugs come from a cardiologist or a general practitioner, antidepressants from a
    psychiatrist or one: never from a dermatologist (reading 25 #6)."""
    writers = {drug: set() for drug in ("amlodipine", "losartan", "sertraline")}
    for row in hc.world.patients.values():
        for prescription in row["prescriptions"]:
            if prescription["drug"] in writers:
                writers[prescription["drug"]].add(hc.world.doctors[prescription["doctor_id"]]["specialty"])
    assert writers["amlodipine"] == writers["losartan"] == {"General Practice", "Cardiology"}
    assert writers["sertraline"] == {"General Practice", "Psychiatry"}


def test_every_generated_name_is_a_patient(hc):
    for name in hc.values("person_name"):
        assert hc.ok("find_patient_id", full_name=name)


def test_top_doctor_is_the_best_rated_of_specialty_and_city(hc):
    doctor_id, rating, named = hc.ok("find_top_doctor", specialty="Cardiology", city="Toronto")
    same = [r["rating"] for r in hc.world.doctors.values() if r["specialty"] == "Cardiology" and r["city"] == "Toronto"]
    assert rating == max(same)
    name, specialty, clinic, phone = hc.ok("get_doctor_details", doctor_id=doctor_id)
    assert specialty == "Cardiology" and clinic.startswith("Toronto") and name == named and phone.startswith("+1-")
    assert "unknown specialty" in hc.error("find_top_doctor", specialty="Astrology", city="Toronto")
    assert "no clinics known" in hc.error("find_top_doctor", specialty="Cardiology", city="Atlantis")
    assert "unknown doctor id" in hc.error("get_doctor_details", doctor_id="D-1")


def test_every_specialty_and_city_has_a_doctor(hc):
    for city in hc.values("city"):
        for specialty in hc.values("medical_specialty"):
            hc.ok("find_top_doctor", specialty=specialty, city=city)


def test_symptoms_map_to_specialties(hc):
    assert hc.ok("match_symptom_to_specialty", symptom="chest pain") == "Cardiology"
    assert hc.ok("match_symptom_to_specialty", symptom="heartburn after meals") == "Gastroenterology"
    assert hc.ok("match_symptom_to_specialty", symptom="My toddler's rash and fever") == "Pediatrics"
    assert hc.ok("match_symptom_to_specialty", symptom="red watery eyes") == "Ophthalmology"
    for phrase in hc.values("symptom_description"):  # (requests name no Pediatrics, which a child's symptoms find)
        assert hc.ok("match_symptom_to_specialty", symptom=phrase) in (*hc.values("medical_specialty"), "Pediatrics")
    assert "Pediatrics" not in hc.values("medical_specialty")
    assert "name the main symptom" in hc.error("match_symptom_to_specialty", symptom="I feel weird")


def test_next_slot_is_free_and_on_or_after_the_day(hc):
    doctor_id = hc.values("doctor_id")[0]
    slot, same_doctor = hc.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-20")
    assert same_doctor == doctor_id  # the opening names its doctor, so a booking takes both together
    assert slot >= "2025-06-20T08:00" and slot[-2:] in ("00", "30")
    # A past date means "from now on".
    assert hc.ok("get_next_available_slot", doctor_id=doctor_id, day="2020-01-01")[0] > "2025-06-13T09:30"
    assert "only runs to" in hc.error("get_next_available_slot", doctor_id=doctor_id, day="2026-01-01")
    assert "YYYY-MM-DD" in hc.error("get_next_available_slot", doctor_id=doctor_id, day="June 20")
    assert "unknown doctor id" in hc.error("get_next_available_slot", doctor_id="D-0", day="2025-06-20")


def test_booking_takes_the_slot_and_later_calls_see_it(fresh):
    patient_id = fresh.ok("find_patient_id", full_name="Kenji Tanaka")
    home = fresh.ok("get_patient_profile", patient_id=patient_id)[1]
    doctor_id, _, _ = fresh.ok("find_top_doctor", specialty="Dermatology", city=home)
    slot, _ = fresh.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-20")
    appointment_id, address = fresh.ok("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot=slot)
    assert appointment_id == "APT-5007" and home in address
    assert fresh.world.state["appointments"][appointment_id]["slot"] == slot
    assert fresh.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-20")[0] > slot
    assert "already taken" in fresh.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot=slot)
    elsewhere = next(d for d, row in fresh.world.doctors.items() if row["city"] != home)
    later, _ = fresh.ok("get_next_available_slot", doctor_id=elsewhere, day="2025-06-20")
    assert "home city only" in fresh.error("book_appointment", patient_id=patient_id, doctor_id=elsewhere, slot=later)


def test_booking_rejects_bad_slots(hc):
    patient_id = hc.values("patient_id")[0]
    doctor_id = next(d for d, row in hc.world.doctors.items() if row["city"] == hc.world.patients[patient_id]["city"])
    assert "in the past" in hc.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot="2025-06-12T10:00")
    assert "not a bookable time" in hc.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot="2025-06-20T19:00")
    assert "not a bookable time" in hc.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot="2025-06-20T10:15")
    assert "YYYY-MM-DDTHH:MM" in hc.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot="tomorrow")
    assert "only runs to" in hc.error("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot="2026-01-05T10:00")


def test_booking_needs_verified_insurance_which_needs_consent():
    session = ToolboxSession(SLUG, state={"insurance_verified": False, "data_sharing_consent": False})
    patient_id = session.values("patient_id")[0]
    doctor_id = next(d for d, row in session.world.doctors.items()
                     if row["city"] == session.world.patients[patient_id]["city"])
    slot, _ = session.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-25")
    assert "verify the insurance on file first" in session.error(
        "book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot=slot)
    assert "sign the data-sharing consent first" in session.error("verify_insurance_on_file")
    assert session.ok("sign_data_sharing_consent") == "2025-06-13"
    assert session.ok("verify_insurance_on_file") == ("verified", "2025-12-31")
    assert session.ok("book_appointment", patient_id=patient_id, doctor_id=doctor_id, slot=slot)[0].startswith("APT-")


def test_conditions_hold_by_default_and_break_as_declared(hc):
    conditions = hc.seed.toolbox.conditions
    assert set(conditions) == {"insurance_verified", "data_sharing_consent"}
    for condition in conditions.values():
        assert condition.holds(hc.world)
        broken = type(hc.world)(**{**hc.world.__dict__, "state": {**hc.world.state, **condition.broken_state}})
        assert not condition.holds(broken)
        assert condition.fix_tool in hc.seed.specs


def test_cancel_releases_slot_and_charges_late_fee(fresh):
    appointments = fresh.world.state["appointments"]
    appointment_id = fresh.values("medical_appointment_id")[0]
    row = dict(appointments[appointment_id])
    released, fee = fresh.ok("cancel_appointment", appointment_id=appointment_id)
    assert released == row["slot"] and fee == 0.0 and appointments[appointment_id]["status"] == "cancelled"
    assert "was cancelled" in fresh.error("cancel_appointment", appointment_id=appointment_id)
    assert "unknown appointment" in fresh.error("cancel_appointment", appointment_id="APT-1")
    assert appointment_id not in fresh.values("medical_appointment_id")
    # A booking less than 24 hours ahead costs a late-cancellation fee.
    doctor_id = next(d for d, row in fresh.world.doctors.items() if row["city"] == fresh.world.patients["P-10001"]["city"])
    soon, _ = fresh.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-13")
    new_id, _ = fresh.ok("book_appointment", patient_id="P-10001", doctor_id=doctor_id, slot=soon)
    assert fresh.ok("cancel_appointment", appointment_id=new_id) == (soon, 40.0)


def test_reschedule_moves_the_appointment(fresh):
    appointment_id = fresh.values("medical_appointment_id")[0]
    row = fresh.world.state["appointments"][appointment_id]
    old = row["slot"]
    new, _ = fresh.ok("get_next_available_slot", doctor_id=row["doctor_id"], day="2025-07-20")
    doctor = row["doctor_id"], fresh.world.doctors[row["doctor_id"]]["name"]
    assert fresh.ok("reschedule_appointment", appointment_id=appointment_id, new_slot=new) == (old, *doctor)
    assert row["slot"] == new
    # Moving to the slot it already has changes nothing.
    assert fresh.ok("reschedule_appointment", appointment_id=appointment_id, new_slot=new) == (new, *doctor)
    assert "not a bookable time" in fresh.error("reschedule_appointment", appointment_id=appointment_id, new_slot="2025-07-21T07:00")


def test_prescription_drug_information_and_interactions(hc):
    patient_id = hc.values("patient_id")[3]
    drug, dose, prescriber, prescriber_name = hc.ok("get_latest_prescription", patient_id=patient_id)
    drug_class, max_dose = hc.ok("get_drug_information", drug_name=drug)
    assert dose <= max_dose and drug_class
    assert hc.ok("get_doctor_details", doctor_id=prescriber)[0] == prescriber_name
    assert hc.ok("get_drug_information", drug_name="Warfarin") == ("anticoagulant", 10)
    assert "generic name" in hc.error("get_drug_information", drug_name="Lipitor")
    assert hc.ok("check_drug_interaction", first_drug="ibuprofen", second_drug="warfarin")[0] == "major"
    assert hc.ok("check_drug_interaction", first_drug="warfarin", second_drug="ibuprofen")[0] == "major"
    assert hc.ok("check_drug_interaction", first_drug="cetirizine", second_drug="amoxicillin")[0] == "none"
    assert hc.ok("check_drug_interaction", first_drug="warfarin", second_drug="Warfarin")[0] == "duplicate"
    assert hc.ok("check_drug_interaction", first_drug="fluoxetine", second_drug="sertraline")[0] == "moderate"  # two SSRIs
    assert "unknown drug" in hc.error("check_drug_interaction", first_drug="warfarin", second_drug="snake oil")


def test_pharmacy_with_most_stock(hc):
    name, address, units = hc.ok("find_pharmacy_with_stock", drug_name="amoxicillin", city="Madrid")
    assert name.endswith("Madrid") and "Madrid" in address and units > 0
    in_city = [r["stock"]["amoxicillin"] for r in hc.world.pharmacies.values() if r["city"] == "Madrid"]
    assert units == max(in_city)
    assert "no clinics known" in hc.error("find_pharmacy_with_stock", drug_name="amoxicillin", city="Gotham")


def test_lab_results_and_vaccinations(hc):
    patient_id = hc.values("patient_id")[5]
    value, flag, taken = hc.ok("get_lab_result", patient_id=patient_id, test="HbA1c")
    assert 4.5 <= value <= 8.5 and flag in ("low", "normal", "high") and taken < "2025-06-13"
    assert (flag == "high") == (value > 5.6)
    assert hc.ok("get_lab_result", patient_id=patient_id, test="HbA1c") == (value, flag, taken)
    assert "unknown lab test" in hc.error("get_lab_result", patient_id=patient_id, test="blood type")
    last, due = hc.ok("get_vaccination_record", patient_id=patient_id, vaccine="tetanus")
    assert last < "2025-06-13" and due > last
    assert "unknown vaccine" in hc.error("get_vaccination_record", patient_id=patient_id, vaccine="smallpox")


def test_directory_search_and_clinic_details(hc):
    hits = hc.ok("search_health_directory", query="cardiology paris")
    assert hits and all(h.startswith("Paris") for h in hits)
    address, city, phone = hc.ok("get_clinic_details", clinic_name=hits[0])
    assert city == "Paris" and "Paris" in address and phone.startswith("+33-")
    assert hc.ok("search_health_directory", query="zzz") == []
    assert "between 1 and 20" in hc.error("search_health_directory", query="paris", max_results=0)
    assert "at least one word" in hc.error("search_health_directory", query=" ")
    assert "unknown clinic" in hc.error("get_clinic_details", clinic_name="Springfield General")
    assert all(hc.ok("search_health_directory", query=q) for q in hc.values("health_search_terms"))


def test_insurance_coverage_in_home_currency(hc):
    patient_id = hc.ok("find_patient_id", full_name="Wei Zhang")
    city = hc.world.patients[patient_id]["city"]
    percent, copay, currency = hc.ok("check_insurance_coverage", patient_id=patient_id, specialty="Neurology")
    assert 50 <= percent <= 100 and copay > 0
    from factory.toolbox.gazetteer import CITY_BY_NAME, COUNTRY_BY_NAME
    assert currency == COUNTRY_BY_NAME[CITY_BY_NAME[city].country].currency
    assert "unknown specialty" in hc.error("check_insurance_coverage", patient_id=patient_id, specialty="Magic")


def test_worlds_are_deterministic_and_sessions_isolated():
    a, b = ToolboxSession(SLUG, world_seed=4), ToolboxSession(SLUG, world_seed=4)
    assert a.world.doctors == b.world.doctors and a.world.state == b.world.state
    assert ToolboxSession(SLUG, world_seed=5).world.doctors != a.world.doctors
    doctor_id = next(d for d, row in a.world.doctors.items() if row["city"] == a.world.patients["P-10001"]["city"])
    slot, _ = a.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-20")
    a.ok("book_appointment", patient_id="P-10001", doctor_id=doctor_id, slot=slot)
    assert b.ok("get_next_available_slot", doctor_id=doctor_id, day="2025-06-20")[0] == slot


def test_facts_agree_with_what_the_tools_say(hc):
    facts = hc.seed.toolbox.facts
    for patient_id in hc.values("patient_id")[:20]:
        implied = facts["patient_id"](hc.world, patient_id)
        assert hc.ok("find_patient_id", full_name=implied["person_name"]) == patient_id
        assert hc.ok("get_patient_profile", patient_id=patient_id)[1] == implied["city"]
    for doctor_id in hc.values("doctor_id")[:20]:
        implied = facts["doctor_id"](hc.world, doctor_id)
        _, specialty, clinic, _ = hc.ok("get_doctor_details", doctor_id=doctor_id)
        assert (specialty, clinic) == (implied["medical_specialty"], implied["clinic_name"])
        assert hc.ok("get_clinic_details", clinic_name=clinic)[1] == implied["city"]
    for appointment_id in hc.values("medical_appointment_id"):
        implied = facts["medical_appointment_id"](hc.world, appointment_id)
        patient_city = hc.world.patients[implied["patient_id"]]["city"]
        assert implied["city"] == patient_city == hc.world.doctors[implied["doctor_id"]]["city"]  # seen at home


@pytest.fixture(scope="module")
def pool(hc):
    return library_pool(hc.seeds)


def test_patients_doctors_and_openings_link_by_role(pool):
    links = pool.links
    assert sorted(p for _, p in links[("get_next_available_slot", "book_appointment")]) == ["doctor_id", "slot"]
    assert {g.params for g in pool.groups["book_appointment"]} == {("doctor_id", "slot")}
    assert ("find_top_doctor", "book_appointment") not in links  # a doctor is booked at their own opening
    assert ("get_latest_prescription", "get_next_available_slot") in links
    assert ("get_patient_profile", "find_top_doctor") in links and ("get_patient_profile", "find_pharmacy_with_stock") in links
    assert ("get_patient_profile", "subscribe_to_weather_alerts") not in links  # a patient's city is for care only
    for other in ("get_event_organizer", "resolve_contact_name", "get_doctor_details"):
        assert (other, "find_patient_id") not in links  # patients are named by the user, never by another role
    assert ("book_appointment", "cancel_appointment") not in links  # no cancelling what was just booked


def test_goals_keep_the_desk_apart_from_the_patient(hc):
    """A goal is one role's errand: what is looked up by patient record is the clinic's, and
    moving an appointment and cancelling it (the same appointment) never meet in one request."""
    goals = hc.seed.toolbox.goals.values()
    by_record = {name for name, spec in hc.seed.specs.items() if any(p.kind == "patient_id" for p in spec.parameters)}
    assert by_record and {g.role for g in goals if by_record & set(g.tools)} <= {"clinic receptionist", "nurse"}
    assert all("patient" not in g.role or not by_record & set(g.tools) for g in goals)
    assert not any({"cancel_appointment", "reschedule_appointment"} <= set(g.tools) for g in goals)


def test_phone_numbers_are_dialled_as_their_city_is(hc):
    """A patient in Hong Kong has a +852 number, not China's +86 (reading 24 #38)."""
    codes = {row["city"]: row["phone"].split("-")[0] for row in hc.world.patients.values()}
    assert codes["Hong Kong"] == "+852" and codes["Shanghai"] == "+86"
    # and every number has a three-digit area code: "+1-43-555-7535" reads as a typo (reading 55 #23)
    assert all(re.fullmatch(r"\+\d{1,3}-[2-9]\d\d-555-\d{4}", row["phone"]) for row in hc.world.patients.values())
