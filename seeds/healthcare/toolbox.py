"""Healthcare: patients, doctors and clinics, appointment booking, prescriptions and drugs,
pharmacies, lab results, vaccinations and insurance coverage."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated

from factory.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    city_currency,
    phone_number,
)
from factory.sense import around, distinct, together
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world

toolbox = Toolbox()

# Patients and doctors are people in different roles: a patient's name never feeds a look-up
# of doctors, and no estate agent or phone contact is ever looked up as a patient.
PatientName = Annotated[str, Kind("person_name", role="patient")]
DoctorName = Annotated[str, Kind("person_name", role="physician")]  # a role is also the noun of "that ...": not "doctor" twice
PatientId = Annotated[str, Kind("patient_id")]
DoctorId = Annotated[str, Kind("doctor_id")]
Specialty = Annotated[str, Kind("medical_specialty")]
City = Annotated[str, Kind("city")]
# Where a patient lives is for finding them a doctor or a pharmacy; the weather or the news
# there is nobody's business at a clinic desk ("sign me up for storm alerts where Mateo lives").
HomeCity = Annotated[str, Kind("city", role="home_city")]
Day = Annotated[str, Kind("date")]
BirthDate = Annotated[str, Kind("birth_date", role="patient")]
# A doctor's free appointment slot: it books or moves an appointment; the time an appointment
# was left or freed is bookkeeping and feeds nothing.
Slot = Annotated[str, Kind("datetime", role="appointment_slot")]
# An opening is a doctor's slot: a booking takes the doctor and the time together, both stated
# or both from one look-up, never one doctor at another doctor's opening.
SlotDoctor = Annotated[str, Kind("doctor_id", role="slot_doctor")]
AppointmentId = Annotated[str, Kind("medical_appointment_id")]
Drug = Annotated[str, Kind("drug_name")]
Clinic = Annotated[str, Kind("clinic_name")]
Pharmacy = Annotated[str, Kind("pharmacy_name")]
LabTest = Annotated[str, Kind("lab_test")]
Vaccine = Annotated[str, Kind("vaccine")]
Symptom = Annotated[str, Kind("symptom_description")]
Phone = Annotated[str, Kind("phone_number")]
PatientPhone = Annotated[str, Kind("phone_number", role="patient_phone")]
DoctorPhone = Annotated[str, Kind("phone_number", role="doctor_phone")]
PatientEmail = Annotated[str, Kind("email", role="patient_email")]
Address = Annotated[str, Kind("address")]
CurrencyCode = Annotated[str, Kind("currency_code")]
Copay = Annotated[float, Kind("money_amount")]  # travels with the currency returned beside it
FeeUsd = Annotated[float, Kind("money_amount", role="usd")]  # late-cancellation fees are set in US dollars

# Appointment slots: every 30 minutes from 08:00 to 17:30, every day, from now on for SLOT_DAYS days.
SLOT_DAYS = 180
FIRST_SLOT_HOUR, LAST_SLOT_HOUR = 8, 17
LAST_SLOT_DAY = NOW.date() + timedelta(days=SLOT_DAYS - 1)
TAKEN_SHARE = 0.08  # share of slots already booked by other patients
LATE_CANCEL_HOURS = 24
LATE_CANCEL_FEE_USD = 40.0

SPECIALTIES = (
    "General Practice", "Cardiology", "Dermatology", "Neurology", "Orthopedics",
    "Pediatrics", "Gastroenterology", "Ophthalmology", "Psychiatry", "Pulmonology",
)
# Words in a symptom description → the specialty that treats it (longest keyword wins).
SYMPTOM_KEYWORDS = {
    "chest": "Cardiology", "heart": "Cardiology", "palpitation": "Cardiology", "blood pressure": "Cardiology",
    "rash": "Dermatology", "itch": "Dermatology", "acne": "Dermatology", "mole": "Dermatology", "eczema": "Dermatology",
    "migraine": "Neurology", "headache": "Neurology", "numbness": "Neurology", "dizz": "Neurology", "tremor": "Neurology",
    "knee": "Orthopedics", "back pain": "Orthopedics", "ankle": "Orthopedics", "shoulder": "Orthopedics",
    "fracture": "Orthopedics", "child": "Pediatrics", "toddler": "Pediatrics", "baby": "Pediatrics",
    "stomach": "Gastroenterology", "heartburn": "Gastroenterology", "bloating": "Gastroenterology",
    "diarrh": "Gastroenterology", "vision": "Ophthalmology", "eye": "Ophthalmology",
    "anxiety": "Psychiatry", "sleep": "Psychiatry", "low mood": "Psychiatry", "panic": "Psychiatry",
    "cough": "Pulmonology", "breath": "Pulmonology", "wheez": "Pulmonology", "asthma": "Pulmonology",
    "sore throat": "General Practice", "flu": "General Practice", "checkup": "General Practice",
    "fatigue": "General Practice", "fever": "General Practice", "ear": "General Practice",
}
SYMPTOM_PHRASES = (
    "chest pain", "heart palpitations", "high blood pressure", "an itchy rash", "a changing mole",
    "eczema on the hands", "frequent migraines", "numbness in the fingers", "dizzy spells",
    "knee pain after running", "lower back pain", "a twisted ankle", "shoulder stiffness",
    "a toddler's rash and fever", "a baby's feeding problems", "stomach cramps", "heartburn after meals",
    "constant bloating", "blurry vision", "red watery eyes", "anxiety attacks", "trouble sleeping",
    "a persistent cough", "shortness of breath", "wheezing at night", "a sore throat", "flu symptoms",
    "constant fatigue", "ear pain",
)
# generic drug → class, usual doses (mg), maximum daily dose (mg), a brand name
DRUGS = {
    "atorvastatin": ("statin", (10, 20, 40), 80, "Lipitor"),
    "simvastatin": ("statin", (20, 40), 40, "Zocor"),
    "lisinopril": ("ACE inhibitor", (5, 10, 20), 40, "Zestril"),
    "losartan": ("angiotensin receptor blocker", (25, 50, 100), 100, "Cozaar"),
    "amlodipine": ("calcium channel blocker", (5, 10), 10, "Norvasc"),
    "metoprolol": ("beta blocker", (25, 50, 100), 400, "Lopressor"),
    "metformin": ("biguanide", (500, 850, 1000), 2550, "Glucophage"),
    "omeprazole": ("proton pump inhibitor", (20, 40), 40, "Prilosec"),
    "sertraline": ("SSRI antidepressant", (50, 100), 200, "Zoloft"),
    "fluoxetine": ("SSRI antidepressant", (20, 40), 80, "Prozac"),
    "ibuprofen": ("NSAID", (200, 400, 600), 3200, "Advil"),
    "paracetamol": ("analgesic", (500, 1000), 4000, "Tylenol"),
    "warfarin": ("anticoagulant", (2, 5), 10, "Coumadin"),
    "clopidogrel": ("antiplatelet", (75,), 75, "Plavix"),
    "amoxicillin": ("penicillin antibiotic", (250, 500), 3000, "Amoxil"),
    "clarithromycin": ("macrolide antibiotic", (250, 500), 1000, "Biaxin"),
    "prednisone": ("corticosteroid", (5, 10, 20), 60, "Deltasone"),
    "cetirizine": ("antihistamine", (10,), 10, "Zyrtec"),
    "gabapentin": ("anticonvulsant", (300, 600), 3600, "Neurontin"),
    "tramadol": ("opioid analgesic", (50, 100), 400, "Ultram"),
}
# Who prescribes a drug besides a general practitioner: no dermatologist writes for amlodipine.
PRESCRIBED_IN = {
    "atorvastatin": ("Cardiology",), "simvastatin": ("Cardiology",), "lisinopril": ("Cardiology",),
    "losartan": ("Cardiology",), "amlodipine": ("Cardiology",), "metoprolol": ("Cardiology",),
    "warfarin": ("Cardiology",), "clopidogrel": ("Cardiology",), "metformin": (),
    "omeprazole": ("Gastroenterology",), "sertraline": ("Psychiatry",), "fluoxetine": ("Psychiatry",),
    "ibuprofen": ("Orthopedics", "Pediatrics"), "paracetamol": ("Orthopedics", "Pediatrics"),
    "tramadol": ("Orthopedics",), "amoxicillin": ("Pulmonology", "Pediatrics"),
    "clarithromycin": ("Pulmonology",), "prednisone": ("Pulmonology", "Dermatology"),
    "cetirizine": ("Dermatology", "Pulmonology", "Pediatrics"), "gabapentin": ("Neurology",),
}
INTERACTIONS = {  # unordered drug pair → (severity, advice)
    frozenset({"warfarin", "ibuprofen"}): ("major", "raises bleeding risk; avoid the NSAID or monitor INR closely"),
    frozenset({"warfarin", "clopidogrel"}): ("major", "combined blood thinning; use only under specialist supervision"),
    frozenset({"warfarin", "clarithromycin"}): ("major", "the antibiotic raises warfarin levels; check INR within 3 days"),
    frozenset({"simvastatin", "clarithromycin"}): ("major", "risk of muscle damage; pause the statin during the antibiotic course"),
    frozenset({"atorvastatin", "clarithromycin"}): ("moderate", "higher statin levels; keep atorvastatin at 20 mg or less"),
    frozenset({"sertraline", "tramadol"}): ("major", "risk of serotonin syndrome; choose another pain reliever"),
    frozenset({"fluoxetine", "tramadol"}): ("major", "risk of serotonin syndrome and seizures; avoid the combination"),
    frozenset({"sertraline", "ibuprofen"}): ("moderate", "more bleeding risk; take with food and watch for bruising"),
    frozenset({"fluoxetine", "ibuprofen"}): ("moderate", "more bleeding risk; take with food and watch for bruising"),
    frozenset({"lisinopril", "ibuprofen"}): ("moderate", "may weaken blood pressure control and strain the kidneys"),
    frozenset({"losartan", "ibuprofen"}): ("moderate", "may weaken blood pressure control and strain the kidneys"),
    frozenset({"clopidogrel", "omeprazole"}): ("moderate", "reduces the antiplatelet effect; prefer another stomach protector"),
    frozenset({"metformin", "prednisone"}): ("moderate", "the steroid raises blood sugar; monitor glucose more often"),
    frozenset({"amlodipine", "simvastatin"}): ("moderate", "limit simvastatin to 20 mg a day"),
    frozenset({"gabapentin", "tramadol"}): ("moderate", "added drowsiness; avoid driving until the effect is known"),
    frozenset({"metoprolol", "amlodipine"}): ("minor", "additive blood pressure lowering; rise slowly from sitting"),
}
LAB_TESTS = {  # test → unit, low, high (reference range), spread of simulated values
    "HbA1c": ("%", 4.0, 5.6, (4.5, 8.5)),
    "LDL cholesterol": ("mg/dL", 0.0, 130.0, (60.0, 190.0)),
    "hemoglobin": ("g/dL", 12.0, 17.5, (10.5, 17.9)),
    "TSH": ("mIU/L", 0.4, 4.0, (0.2, 6.5)),
    "vitamin D": ("ng/mL", 30.0, 100.0, (12.0, 70.0)),
    "creatinine": ("mg/dL", 0.6, 1.3, (0.5, 1.7)),
    "fasting glucose": ("mg/dL", 70.0, 99.0, (72.0, 160.0)),
}
VACCINES = {"influenza": 365, "COVID-19": 365, "tetanus": 3650, "pneumococcal": 1825, "hepatitis A": 3650}
PLANS = ("CareFirst Basic", "CareFirst Plus", "Global Health Premier", "MediShield Standard")
PLAN_COPAY_USD = {"CareFirst Basic": 45.0, "CareFirst Plus": 25.0, "Global Health Premier": 10.0, "MediShield Standard": 35.0}
CLINIC_KINDS = ("General Hospital", "Family Health Centre")
PHARMACY_CHAINS = ("CarePlus Pharmacy", "GreenCross Pharmacy", "MediMart Pharmacy")
STREETS = ("Market Street", "King Street", "Station Road", "High Street", "Park Avenue", "River Road",
           "Harbour Street", "Church Lane", "Garden Avenue", "Mill Road", "Bridge Street", "Victoria Road")
ALL_NAMES = sorted(f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES)


@dataclass
class HealthWorld(World):
    patients: dict[str, dict] = field(default_factory=dict)  # patient id → name, birth date, city, contact, plan, prescriptions
    patient_ids: dict[str, str] = field(default_factory=dict)  # full name → patient id
    doctors: dict[str, dict] = field(default_factory=dict)  # doctor id → name, specialty, clinic, city, rating
    clinics: dict[str, dict] = field(default_factory=dict)  # clinic name → city, address, phone
    pharmacies: dict[str, dict] = field(default_factory=dict)  # pharmacy name → city, address, stock by drug
    coverage: dict[str, dict[str, int]] = field(default_factory=dict)  # plan → specialty → percent covered
    salt: str = ""

    def figure(self, *key: object) -> float:
        """A reproducible number in [0, 1) for a (table, key...) cell of this world."""
        return random.Random(":".join(map(str, (self.salt, *key)))).random()

    def slot_taken(self, doctor_id: str, slot: datetime) -> bool:
        stamp = slot.strftime("%Y-%m-%dT%H:%M")
        booked = any(a["doctor_id"] == doctor_id and a["slot"] == stamp and a["status"] == "booked"
                     for a in self.state.get("appointments", {}).values())
        return booked or self.figure("taken", doctor_id, stamp) < TAKEN_SHARE


def _slots_of_day(day: date) -> list[datetime]:
    """Every bookable slot of a day that is still ahead of the simulated now."""
    start = datetime(day.year, day.month, day.day, FIRST_SLOT_HOUR)
    slots = [start + timedelta(minutes=30 * k) for k in range(2 * (LAST_SLOT_HOUR - FIRST_SLOT_HOUR + 1))]
    return [s for s in slots if s > NOW]


@toolbox.world
def build_world(rng: random.Random) -> HealthWorld:
    salt = str(rng.random())
    clinics: dict[str, dict] = {}
    for city in CITIES:
        for kind in CLINIC_KINDS:
            clinics[f"{city.name} {kind}"] = {
                "city": city.name,
                "address": f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {city.name}",
                "phone": phone_number(rng, city.name),
                "specialties": [],
            }
    doctors: dict[str, dict] = {}
    names = rng.sample(ALL_NAMES, 2 * len(CITIES) * len(SPECIALTIES))
    for city in CITIES:
        for specialty in SPECIALTIES:
            for _ in range(rng.choice((1, 1, 2))):
                clinic = f"{city.name} {rng.choice(CLINIC_KINDS)}"
                doctor_id = f"D-{2001 + len(doctors)}"
                doctors[doctor_id] = {
                    "name": names[len(doctors)],
                    "specialty": specialty,
                    "clinic": clinic,
                    "city": city.name,
                    "rating": round(rng.uniform(3.6, 5.0), 1),
                    "phone": phone_number(rng, city.name),
                }
                if specialty not in clinics[clinic]["specialties"]:
                    clinics[clinic]["specialties"].append(specialty)
    doctors_by_city: dict[str, list[str]] = {}
    for doctor_id, row in doctors.items():
        doctors_by_city.setdefault(row["city"], []).append(doctor_id)

    patients: dict[str, dict] = {}
    patient_ids: dict[str, str] = {}
    for index, name in enumerate(ALL_NAMES):
        patient_id = f"P-{10001 + index}"
        city = rng.choice(CITIES)
        prescriptions = []
        for drug in rng.sample(sorted(DRUGS), rng.randint(1, 3)):
            prescriptions.append({
                "drug": drug,
                "dose_mg": rng.choice(DRUGS[drug][1]),
                "doctor_id": rng.choice([d for d in doctors_by_city[city.name]
                                         if doctors[d]["specialty"] in ("General Practice", *PRESCRIBED_IN[drug])]),
                "date": (NOW.date() - timedelta(days=rng.randint(3, 400))).isoformat(),
            })
        prescriptions.sort(key=lambda p: p["date"])
        first, last = name.lower().split()
        patients[patient_id] = {
            "name": name,
            "birth_date": date(rng.randint(1940, 2020), rng.randint(1, 12), rng.randint(1, 28)).isoformat(),
            "city": city.name,
            "phone": phone_number(rng, city.name),
            "email": f"{first}.{last}@example.com",
            "plan": rng.choice(PLANS),
            "prescriptions": prescriptions,
        }
        patient_ids[name] = patient_id

    pharmacies: dict[str, dict] = {}
    for city in CITIES:
        names_here = [f"{chain} {city.name}" for chain in PHARMACY_CHAINS]
        for pharmacy in names_here:
            pharmacies[pharmacy] = {
                "city": city.name,
                "address": f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {city.name}",
                "stock": {drug: max(0, rng.randint(-30, 90)) for drug in sorted(DRUGS)},
            }
        for drug in DRUGS:  # every city stocks every drug somewhere
            if all(pharmacies[p]["stock"][drug] == 0 for p in names_here):
                pharmacies[rng.choice(names_here)]["stock"][drug] = rng.randint(5, 40)

    coverage = {plan: {s: rng.choice((50, 60, 70, 80, 90, 100)) for s in SPECIALTIES} for plan in PLANS}
    built = HealthWorld(patients=patients, patient_ids=patient_ids, doctors=doctors, clinics=clinics,
                        pharmacies=pharmacies, coverage=coverage, salt=salt)
    appointments: dict[str, dict] = {}
    while len(appointments) < 6:  # a few appointments already on the books, each with a doctor in the patient's city
        patient_id = rng.choice(sorted(patients))
        doctor_id = rng.choice(doctors_by_city[patients[patient_id]["city"]])
        day = NOW.date() + timedelta(days=rng.randint(1, 20))
        slot = rng.choice(_slots_of_day(day))
        if built.slot_taken(doctor_id, slot):
            continue
        appointments[f"APT-{5001 + len(appointments)}"] = {
            "patient_id": patient_id, "doctor_id": doctor_id,
            "slot": slot.strftime("%Y-%m-%dT%H:%M"), "status": "booked",
        }
    built.state = {"insurance_verified": True, "data_sharing_consent": True, "appointments": appointments}
    return built


# --- helpers -----------------------------------------------------------------------------


def _w() -> HealthWorld:
    return world(HealthWorld)


def _patient(patient_id: str) -> dict:
    w = _w()
    require(patient_id in w.patients,
            f"unknown patient id {patient_id!r}; look the patient up by full name to get an id like 'P-10001'")
    return w.patients[patient_id]


def _doctor(doctor_id: str) -> dict:
    w = _w()
    require(doctor_id in w.doctors, f"unknown doctor id {doctor_id!r}; find a doctor by specialty and city first")
    return w.doctors[doctor_id]


def _city(city: str) -> str:
    require(city in CITY_BY_NAME, f"no clinics known in {city!r}; cities served: {', '.join(sorted(CITY_BY_NAME))}")
    return city


def _specialty(specialty: str) -> str:
    require(specialty in SPECIALTIES,
            f"unknown specialty {specialty!r}; use one of {', '.join(SPECIALTIES)} (or map a symptom to a specialty)")
    return specialty


def _drug(drug: str) -> str:
    name = drug.strip().lower()
    require(name in DRUGS, f"unknown drug {drug!r}; use the generic name, e.g. 'atorvastatin'")
    return name


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


def _slot(text: str) -> datetime:
    try:
        slot = datetime.strptime(text, "%Y-%m-%dT%H:%M")
    except ValueError:
        raise ToolError(f"slot {text!r} is not in YYYY-MM-DDTHH:MM format") from None
    require(slot > NOW, f"slot {text} is in the past; it is now {NOW:%Y-%m-%dT%H:%M}")
    require(slot.date() <= LAST_SLOT_DAY, f"the booking calendar only runs to {LAST_SLOT_DAY}")
    require(slot.minute in (0, 30) and FIRST_SLOT_HOUR <= slot.hour <= LAST_SLOT_HOUR,
            f"slot {text} is not a bookable time: slots start on the hour or half hour from "
            f"{FIRST_SLOT_HOUR:02d}:00 to {LAST_SLOT_HOUR}:30")
    return slot


def _appointment(appointment_id: str) -> dict:
    appointments = _w().state.get("appointments", {})
    require(appointment_id in appointments, f"unknown appointment {appointment_id!r}; appointment ids look like 'APT-5001'")
    row = appointments[appointment_id]
    require(row["status"] == "booked", f"appointment {appointment_id} was {row['status']}; book a new appointment instead")
    return row


def _currency_of(city: str) -> str:
    return city_currency(city)


# --- value generators ----------------------------------------------------------------------


@toolbox.values_for("person_name")
def _names(w: HealthWorld) -> list[str]:
    return ALL_NAMES[::7]


@toolbox.values_for("patient_id")
def _patient_ids(w: HealthWorld) -> list[str]:
    return sorted(w.patients)[::7]


@toolbox.values_for("doctor_id")
def _doctor_ids(w: HealthWorld) -> list[str]:
    return sorted(w.doctors)[::3]


@toolbox.values_for("medical_specialty")
def _specialties(w: HealthWorld) -> list[str]:
    """The specialties a request names: not Pediatrics, which a request about one of the world's
    adult patients would send to a children's doctor (reading 41 #24)."""
    return [s for s in SPECIALTIES if s != "Pediatrics"]


@toolbox.values_for("city")
def _cities(w: HealthWorld) -> list[str]:
    return sorted(CITY_BY_NAME)


@toolbox.values_for("date")
def _dates(w: HealthWorld) -> list[str]:
    return [(NOW.date() + timedelta(days=k)).isoformat() for k in range(1, 29)]


@toolbox.values_for("datetime")
def _datetimes(w: HealthWorld) -> list[str]:
    days = [NOW.date() + timedelta(days=k) for k in range(1, 29, 3)]
    return [s.strftime("%Y-%m-%dT%H:%M") for d in days for s in _slots_of_day(d)[::3]]


@toolbox.values_for("medical_appointment_id")
def _appointment_ids(w: HealthWorld) -> list[str]:
    return sorted(a for a, row in w.state.get("appointments", {}).items() if row["status"] == "booked")


@toolbox.values_for("drug_name")
def _drugs(w: HealthWorld) -> list[str]:
    return sorted(DRUGS)


@toolbox.values_for("lab_test")
def _lab_tests(w: HealthWorld) -> list[str]:
    return list(LAB_TESTS)


@toolbox.values_for("vaccine")
def _vaccines(w: HealthWorld) -> list[str]:
    return list(VACCINES)


@toolbox.values_for("symptom_description")
def _symptoms(w: HealthWorld) -> list[str]:
    return list(SYMPTOM_PHRASES)


@toolbox.values_for("clinic_name")
def _clinics(w: HealthWorld) -> list[str]:
    return sorted(w.clinics)


@toolbox.values_for("health_search_terms")
def _search_terms(w: HealthWorld) -> list[str]:
    terms = []
    for name, row in sorted(w.clinics.items()):
        terms.append(f"{row['specialties'][0].lower()} {row['city'].lower()}" if row["specialties"] else row["city"].lower())
    terms += [f"family health {c.lower()}" for c in sorted(CITY_BY_NAME)[::4]]
    return terms


toolbox.condition(
    "insurance_verified",
    holds=lambda w: bool(w.state.get("insurance_verified")),
    broken_state={"insurance_verified": False},
    fix=("verify_insurance_on_file", {}),
    consent="share",  # checking the cover sends the patient's details to the insurer
    context=("If the insurance has to be checked with the insurer first, go ahead.",
             "You may have my insurance verified with the insurer if that's needed.",
             "Have the insurer confirm my cover if the booking needs it."),
    says=("I don't think the insurance on my booking account has been verified yet.",
          "My insurance details still show as unverified when I book.",
          "The clinic hasn't confirmed my insurance on my booking account."),
)
toolbox.condition(
    "data_sharing_consent",
    holds=lambda w: bool(w.state.get("data_sharing_consent")),
    broken_state={"data_sharing_consent": False},
    fix=("sign_data_sharing_consent", {}),
    consent="sign",
    context=("If the insurer needs my data-sharing consent, sign it for me.",
             "You can sign the insurer's data-sharing form on my behalf if it's required.",
             "Should a data-sharing consent be missing, sign it for me."),
    says=("I never signed the insurer's data-sharing consent.",
          "My insurer is still waiting for my consent to share records.",
          "I haven't given my insurance company permission to share my data."),
)

# Nothing is bridged in: a patient is looked up by a name the user states, never by a
# contact's, an attendee's or an agent's, and a city from elsewhere mostly reads as noise ("the
# best orthopaedist in the city of the campus of Thames House"); a bridge opens a kind to every
# seed's producers, not only to a contact's or a trip's city, which would make sense.
toolbox.written_as("patient_id", "patient {}")
# People know a doctor as the best cardiologist in town or the one who wrote a prescription;
# "D-2214" is the directory's own number. Patient record and appointment numbers are on the
# papers people hold, so they are stated.
toolbox.internal_kinds("doctor_id")
toolbox.written_as("doctor_id", "doctor {}")
toolbox.written_as("medical_appointment_id", "appointment {}")


# --- tools ---------------------------------------------------------------------------------


@toolbox.tool(
    asks=(
        "what's the patient record number of {full_name}?",
        "look up the patient id of {full_name}",
        "find {full_name} in the patient records and give me the id",
        "which patient ID do we have on file for {full_name}?",
        "pull up the record number for {full_name}",
        "I've got {full_name} on the line. What's their patient number?",
        "search the patient register for {full_name} and tell me the record id",
        "{full_name} is registered with us; under which record number?",
        "get me the chart number of patient {full_name}",
        "what record id does {full_name} have with us?",
        "check our patient list for {full_name} and tell me their patient id",
        "find the patient id for {full_name}",
        "which record number belongs to {full_name}?",
        "look up {full_name} in our records and tell me the patient id",
        "what id is {full_name} registered under?",
        "get the patient number we hold for {full_name}",
    ),
    gives={
        "patient_id": (
            "{full_name}",
            "patient {full_name}",
            "our patient {full_name}",
            "the patient named {full_name}",
            "the patient {full_name}",
            "the patient called {full_name}",
            "the patient listed as {full_name}",
            "the patient under the name {full_name}",
            "the patient registered as {full_name}",
            "the patient on file as {full_name}",
            "the patient whose name is {full_name}",
        ),
    },  # a record stands for its patient, named as people name them
)
def find_patient_id(full_name: PatientName) -> PatientId:
    """Look up a patient's record id from their full name.

    Args:
        full_name: The patient's first and last name, e.g. "Jane Doe".

    Returns:
        patient_id: the patient's record (its id, like "P-10001").
    """
    w = _w()
    key = " ".join(part.capitalize() for part in full_name.split())
    require(key in w.patient_ids, f"no patient named {full_name!r}; give the first and last name as registered")
    return w.patient_ids[key]


@toolbox.tool(
    asks=(
        "what are the date of birth, home city, phone and email on file for {patient_id}?",
        "pull up the profile of {patient_id} with the birth date, home city, phone number and email",
        "I need to reach {patient_id}. Which phone, email and home city are on file, and what's the date of birth?",
        "when was {patient_id} born, which city do they live in, and how can I contact them by phone or email?",
        "get the DOB, city, phone number and email address of {patient_id}",
        "confirm the birth date, home city, telephone and email we hold for {patient_id}",
        "what contact details do we have for {patient_id}? Include the phone, the email, the city of residence and the date of birth.",
        "show me the personal details on file for {patient_id}, namely birthday, home city, phone and email",
        "I'm updating the file of {patient_id}. Can you read me back their date of birth, city, phone number and email?",
        "what do we have on file for {patient_id}: date of birth, home city, phone and email?",
        "read me the date of birth, city, phone number and email address of {patient_id}",
        "open the record of {patient_id} and give me their DOB, home city, phone and email",
        "which phone number and email do we hold for {patient_id}? Also their date of birth and home city.",
        "check the registration details of {patient_id}: date of birth, home city, phone and email",
        "list the date of birth, town of residence, phone number and email of {patient_id}",
        "where does {patient_id} live, when were they born, and what phone and email do we have?",
        "can you bring up the profile of {patient_id}? I want the birth date, city, phone and email.",
        "fetch the phone, email, home city and birth date recorded for {patient_id}",
        "I have to confirm who I'm speaking to. What date of birth, home city, phone and email are on record for {patient_id}?",
        "look up {patient_id}: date of birth, home city, phone number and email",
        "tell me the birth date, home city, phone and email of {patient_id}",
        "give me the contact details of {patient_id} with the date of birth and home city",
        "which city does {patient_id} live in, and what are their date of birth, phone and email?",
        "pull up the demographics of {patient_id}: DOB, city, phone and email",
        "what's on the record of {patient_id} for date of birth, home city, phone and email?",
        "find the date of birth, phone, email and home city for {patient_id}",
    ),
    gives={
        "home_city": (
            "the city where {patient_id} lives",
            "the city {patient_id} lives in",
            "the city {patient_id} calls home",
            "the town {patient_id} lives in",
            "the city {patient_id} is based in",
            "the city listed as home on the record of {patient_id}",
            "the city {patient_id} resides in",
            "the city on file as home for {patient_id}",
            "the city where {patient_id} resides",
        ),
    },
)
def get_patient_profile(patient_id: PatientId) -> tuple[BirthDate, HomeCity, PatientPhone, PatientEmail]:
    """Get a patient's date of birth, home city and contact details.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".

    Returns:
        birth_date: the patient's date of birth (YYYY-MM-DD).
        home_city: the patient's home city.
        phone: the patient's phone number.
        email: the patient's email address.
    """
    row = _patient(patient_id)
    return row["birth_date"], row["city"], row["phone"], row["email"]


@toolbox.tool(
    asks=(
        "who is the highest-rated doctor for {specialty} in {city}, and what is their rating?",
        "find the best-rated doctor for {specialty} in {city} and tell me their rating",
        "I need a doctor in {city} for {specialty}. Who is rated best, and how well?",
        "which doctor for {specialty} has the top patient rating in {city}, and what score is it?",
        "recommend the best-reviewed doctor for {specialty} in {city}, with their rating",
        "who is the best-rated {specialty} doctor in {city}, and what is the rating?",
        "search {city} for the top-rated doctor for {specialty} and give me the score out of 5",
        "who's the best doctor for {specialty} in {city}? I'd like to see the rating too.",
        "in {city}, which doctor do patients rate highest for {specialty}, and how many stars?",
        "top-rated doctor for {specialty} in {city}, rating included.",
    ),
    gives={
        "doctor_id": (
            "the best-rated doctor for {specialty} in {city}",
            "the top-rated doctor in {city} for {specialty}",
            "the doctor with the best reviews for {specialty} in {city}",
            "the most highly rated physician for {specialty} in {city}",
            "the best doctor for {specialty} in {city}",
            "the doctor patients rate highest for {specialty} in {city}",
            "the highest-scoring doctor for {specialty} in {city}",
            "the most recommended doctor for {specialty} in {city}",
        ),
    },
)
def find_top_doctor(specialty: Specialty, city: HomeCity) -> tuple[DoctorId, float, DoctorName]:
    """Find the highest-rated doctor of a medical specialty in a city.

    Args:
        specialty: Medical specialty, e.g. "Cardiology" or "General Practice".
        city: City to search in, e.g. "Toronto".

    Returns:
        doctor_id: the highest-rated doctor (their doctor id, like "D-2001").
        rating: the doctor's patient rating (out of 5).
        doctor_name: the doctor's full name.
    """
    w = _w()
    _specialty(specialty)
    _city(city)
    found = sorted((-row["rating"], doctor_id) for doctor_id, row in w.doctors.items()
                   if row["specialty"] == specialty and row["city"] == city)
    require(bool(found), f"no {specialty} doctor practises in {city}")
    return found[0][1], -found[0][0], w.doctors[found[0][1]]["name"]


@toolbox.tool(
    asks=(
        "who is {doctor_id}? Give me the name, specialty, clinic and direct line.",
        "look up the name, specialty, clinic and phone line of {doctor_id}",
        "which clinic does {doctor_id} work at? I also need their name, specialty and direct number.",
        "what's the name of {doctor_id}, what do they specialise in, where do they practise and what's their phone number?",
        "give me the full name, specialty, clinic and direct phone of {doctor_id}",
        "I'd like to call {doctor_id}. What's their name and direct number, which clinic are they at, and what's their specialty?",
        "tell me more about {doctor_id}, including the name, field, clinic and phone",
        "get the contact card of {doctor_id} with name, specialty, clinic and direct line",
        "how can I get hold of {doctor_id}? I need the name, the specialty, the clinic and a direct number.",
        "find out about {doctor_id}: name, specialty, clinic and direct phone",
        "what's the name, field, clinic and phone number of {doctor_id}?",
        "look up {doctor_id} in the directory and give me the name, specialty, clinic and direct line",
        "I have a question for {doctor_id}. What's their name and direct line, and which specialty and clinic are they in?",
        "who is {doctor_id}? Tell me the name, the specialty, the clinic and the phone.",
        "get me the details of {doctor_id}: full name, area of practice, clinic and direct phone number",
        "pull up the directory entry of {doctor_id}, with the name, specialty, clinic and phone",
        "tell me the name of {doctor_id}, what they specialise in, which clinic they're at and their direct line",
    ),
    gives={
        "clinic_name": (
            "the clinic of {doctor_id}",
            "the clinic where {doctor_id} works",
            "the clinic {doctor_id} practises at",
            "the clinic {doctor_id} works out of",
            "the practice of {doctor_id}",
        ),
        "specialty": (
            "the specialty of {doctor_id}",
            "the field {doctor_id} practises",
            "the specialty {doctor_id} practises",
            "the area of medicine {doctor_id} works in",
            "the medical field of {doctor_id}",
        ),
    },
)
def get_doctor_details(doctor_id: DoctorId) -> tuple[DoctorName, Specialty, Clinic, DoctorPhone]:
    """Get a doctor's name, specialty, clinic and direct phone line.

    Args:
        doctor_id: The doctor's id, e.g. "D-2001".

    Returns:
        doctor_name: the doctor's full name.
        specialty: the doctor's medical specialty.
        clinic_name: the doctor's clinic.
        phone: the doctor's direct phone line.
    """
    row = _doctor(doctor_id)
    return row["name"], row["specialty"], row["clinic"], row["phone"]


@toolbox.tool(
    asks=(
        "which kind of specialist treats {symptom}?",
        "what medical specialty should someone see for {symptom}?",
        "work out which specialty deals with {symptom}",
        "which specialist does one see about {symptom}?",
        "what branch of medicine handles {symptom}?",
        "for {symptom}, which kind of specialist should the appointment be with?",
        "find the right specialty for {symptom}",
        "for {symptom}, which specialty is the right one?",
        "tell me the medical specialty that covers {symptom}",
        "which specialty does {symptom} fall under?",
    ),
    gives={
        "specialty": (
            "{symptom}",
            "the specialty that handles {symptom}",
            "the right specialty for {symptom}",
            "the specialty indicated for {symptom}",
            "the branch of medicine that covers {symptom}",
            "whichever specialty covers {symptom}",
            "the specialty best suited to {symptom}",
            "the specialty that treats {symptom}",
            "the clinical specialty matching {symptom}",
            "the specialist field dealing with {symptom}",
        ),
    },  # people name the complaint; mapping it to a specialty is the agent's part
    tags=("canonicalise",),
)
def match_symptom_to_specialty(symptom: Symptom) -> Specialty:
    """Map a symptom described in everyday words to the medical specialty that treats it.

    Args:
        symptom: Free-text description of the main symptom, e.g. "a persistent cough" or "knee pain after running".

    Returns:
        specialty: the specialty that treats the symptom.
    """
    text = " " + " ".join(re.sub(r"[^a-z' ]", " ", symptom.lower()).split()) + " "
    hits = [(len(k), k) for k in SYMPTOM_KEYWORDS if re.search(rf"\b{re.escape(k)}", text)]
    require(bool(hits), f"cannot tell which specialty treats {symptom!r}; name the main symptom, e.g. 'chest pain' or 'a rash'")
    return SYMPTOM_KEYWORDS[max(hits)[1]]


@toolbox.tool(
    asks=(
        "when is the first free appointment with {doctor_id} on or after {day}?",
        "find the earliest opening {doctor_id} has from {day} on",
        "when is {doctor_id} first free from {day}? Give me the slot.",
        "what's the next available slot with {doctor_id}, starting {day}?",
        "check the calendar of {doctor_id} for the first open time on or after {day}",
        "when is the earliest opening with {doctor_id} from {day}?",
        "starting {day}, when can I get in to see {doctor_id}?",
        "look for the first unbooked slot with {doctor_id} from {day} onwards",
        "does {doctor_id} have any time free from {day}? I need the earliest slot.",
    ),
    gives={
        "doctor_id, slot": (
            "the first free slot of {doctor_id} from {day}",
            "the earliest opening {doctor_id} has on or after {day}",
            "the earliest free appointment with {doctor_id} from {day} on",
            "the next opening with {doctor_id} on or after {day}",
            "the soonest available time with {doctor_id} starting {day}",
        ),
        "slot": (
            "the earliest time {doctor_id} is free on or after {day}",
            "the next free time slot of {doctor_id} from {day} onwards",
            "the first opening in the calendar of {doctor_id} from {day}",
        ),
    },
    sense=(around("day", before=0, after=120),),
)
def get_next_available_slot(doctor_id: DoctorId, day: Day) -> tuple[Slot, SlotDoctor]:
    """Find a doctor's first free appointment slot on or after a date.

    Args:
        doctor_id: The doctor's id, e.g. "D-2001".
        day: Earliest acceptable date in YYYY-MM-DD; a past date means from now on.

    Returns:
        slot: the first free slot (YYYY-MM-DDTHH:MM).
        doctor_id: the doctor the slot is with (the doctor asked about).
    """
    w = _w()
    _doctor(doctor_id)
    start = max(_day(day), NOW.date())
    require(start <= LAST_SLOT_DAY, f"the booking calendar only runs to {LAST_SLOT_DAY}; pick an earlier date")
    current = start
    while current <= LAST_SLOT_DAY:
        for slot in _slots_of_day(current):
            if not w.slot_taken(doctor_id, slot):
                return slot.strftime("%Y-%m-%dT%H:%M"), doctor_id
        current += timedelta(days=1)
    raise ToolError(f"doctor {doctor_id} has no free slot between {start} and {LAST_SLOT_DAY}")


@toolbox.tool(
    asks=(
        "book {patient_id} for {opening} and give me the appointment id and the clinic address",
        "make an appointment for {patient_id}: {opening}. What's the booking number, and where do they have to go?",
        "please schedule {patient_id} for {opening}. What's the appointment number and the clinic's address?",
        "reserve {opening} for {patient_id}. I need the confirmation number and the clinic address.",
        "put {patient_id} down for {opening}, and tell me the appointment id and where the clinic is",
        "{patient_id} would like {opening}. Book it and send me the appointment reference and the clinic's street address.",
        "can you get {patient_id} into {opening}? Let me know the appointment id and the address to go to.",
        "grab {opening} for {patient_id} and tell me the booking id and the clinic address",
        "I want {opening} booked for {patient_id}. What's the appointment number, and what address should they go to?",
    ),
    groups={"opening": "{doctor_id}, {slot}"},  # gives of the look-up are keyed "doctor_id, slot", in this order
    sense=(around("slot", before=0, after=120),),
    requires=("insurance_verified",),
    tags=("state_change",),
)
def book_appointment(patient_id: PatientId, doctor_id: SlotDoctor, slot: Slot) -> tuple[str, str]:
    """Book an appointment for a patient with a doctor of the patient's home city at a given slot.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".
        doctor_id: The doctor's id, e.g. "D-2001".
        slot: Appointment start in YYYY-MM-DDTHH:MM (on the hour or half hour, 08:00-17:30).

    Returns:
        appointment_id: the new appointment (its id, like "APT-5007").
        clinic_address: the address of the clinic to go to.
    """
    w = _w()
    patient = _patient(patient_id)
    doctor = _doctor(doctor_id)
    moment = _slot(slot)
    require(w.state.get("insurance_verified", False),
            "insurance on file is not verified, so bookings are blocked: verify the insurance on file first")
    # Plans cover care where the patient lives; this also keeps a Buenos Aires patient from being
    # booked with a doctor in Shanghai just because both were named in one request.
    require(doctor["city"] == patient["city"],
            f"doctor {doctor_id} practises in {doctor['city']}, but patient {patient_id} lives in {patient['city']} "
            "and the plan covers doctors in the home city only; find a doctor there")
    require(not w.slot_taken(doctor_id, moment),
            f"slot {slot} with {doctor_id} is already taken; ask for the doctor's next available slot")
    appointments = w.state.setdefault("appointments", {})
    appointment_id = f"APT-{5001 + len(appointments)}"
    appointments[appointment_id] = {"patient_id": patient_id, "doctor_id": doctor_id, "slot": slot, "status": "booked"}
    return appointment_id, w.clinics[doctor["clinic"]]["address"]


@toolbox.tool(
    asks=(
        "cancel {appointment_id}, and tell me which slot that frees and whether there is a late fee",
        "please call off {appointment_id}; which slot does that free up, and is there a fee?",
        "{appointment_id} can't go ahead. Cancel it and tell me the freed slot and any cancellation fee.",
        "I can't make {appointment_id}. Please cancel it. What time was it, and will I be charged?",
        "drop {appointment_id} from the calendar and let me know the time slot it frees and any late-cancellation charge",
        "cancel {appointment_id} for me. Which slot opens up, and do I owe a fee?",
        "something came up and I need to cancel {appointment_id}. Which slot does that free, and is there a late fee?",
        "withdraw {appointment_id}, and report the released slot and the cancellation fee",
        "what will it cost to cancel {appointment_id}? Go ahead and cancel it, and tell me which time it was booked for.",
    ),
    tags=("state_change", "ends"),
)
def cancel_appointment(appointment_id: AppointmentId) -> tuple[str, FeeUsd]:
    """Cancel a booked appointment, releasing its slot.

    Args:
        appointment_id: The appointment id, e.g. "APT-5001".

    Returns:
        released_slot: the freed-up slot (YYYY-MM-DDTHH:MM).
        cancellation_fee: the late-cancellation fee (US dollars; 0 when cancelled 24 h or more ahead).
    """
    row = _appointment(appointment_id)
    row["status"] = "cancelled"
    start = datetime.strptime(row["slot"], "%Y-%m-%dT%H:%M")
    late = start - NOW < timedelta(hours=LATE_CANCEL_HOURS)
    return row["slot"], LATE_CANCEL_FEE_USD if late else 0.0


@toolbox.tool(
    asks=(
        "move {appointment_id} to {new_slot} and tell me the old time and the doctor",
        "reschedule {appointment_id} for {new_slot}; which slot did it have before, and with which doctor?",
        "can {appointment_id} be moved to {new_slot}? Do it and tell me the previous time and the doctor.",
        "switch {appointment_id} to {new_slot}, and let me know what time it was originally and who the doctor is",
        "I need {appointment_id} moved to {new_slot} instead. When was it before, and which doctor is it with?",
        "change the time of {appointment_id} to {new_slot}; what was the original slot, and who is the doctor?",
        "rebook {appointment_id} for {new_slot} with the same doctor, and tell me the old slot and which doctor it's with",
        "{appointment_id} doesn't suit me anymore. Shift it to {new_slot} and tell me the slot it had and the doctor.",
        "switch {appointment_id} over to {new_slot}. Which time did it replace, and who is it with?",
    ),
    # A slot found on one doctor's calendar moves only that doctor's appointment.
    sense=(around("new_slot", before=0, after=120), together("appointment_id", "new_slot")),
    tags=("state_change",),
)
def reschedule_appointment(appointment_id: AppointmentId, new_slot: Slot) -> tuple[str, str, DoctorName]:
    """Move a booked appointment to another slot with the same doctor.

    Args:
        appointment_id: The appointment id, e.g. "APT-5001".
        new_slot: New start time in YYYY-MM-DDTHH:MM (on the hour or half hour, 08:00-17:30).

    Returns:
        previous_slot: the slot the appointment left (YYYY-MM-DDTHH:MM).
        doctor_id: the appointment's doctor (their doctor id).
        doctor_name: the appointment's doctor (their full name).
    """
    w = _w()
    row = _appointment(appointment_id)
    moment = _slot(new_slot)
    doctor = row["doctor_id"], w.doctors[row["doctor_id"]]["name"]
    if new_slot == row["slot"]:
        return new_slot, *doctor  # already there: nothing to move
    require(not w.slot_taken(row["doctor_id"], moment),
            f"slot {new_slot} with {row['doctor_id']} is already taken; ask for the doctor's next available slot")
    previous = row["slot"]
    row["slot"] = new_slot
    return previous, *doctor


@toolbox.tool(
    asks=(
        "what was {patient_id} prescribed most recently, at what dose, and by whom?",
        "look up the latest prescription of {patient_id}, with the drug, the dose and the prescribing doctor",
        "which drug did {patient_id} get prescribed last? Give me the dose and the prescribing doctor.",
        "what's the newest medication on file for {patient_id}, how many milligrams, and who prescribed it?",
        "check the most recent prescription for {patient_id}, including the dose and the prescriber",
        "I want to review the last prescription of {patient_id}. Which drug, what dose, and which doctor wrote it?",
        "pull the latest script for {patient_id} with drug name, strength and prescriber",
        "what medicine was {patient_id} last put on, at what strength, and who signed off on it?",
        "tell me the drug, dose and prescribing physician of the last prescription issued to {patient_id}",
        "the pharmacist is asking what {patient_id} was last prescribed. Which drug, what dose, and who wrote the script?",
        "I'm reconciling the medication list of {patient_id}: confirm the most recent drug, its dose in milligrams and the prescribing doctor.",
        "look over the last-issued prescription of {patient_id} for me: drug, milligrams, and the doctor who issued it",
        "which medication did {patient_id} get on the latest prescription, at what dose, and who prescribed it?",
        "find the last prescription written for {patient_id}: the drug, the milligrams and the doctor who wrote it",
    ),
    gives={
        "drug_name": (
            "the drug {patient_id} was prescribed most recently",
            "the latest drug prescribed to {patient_id}",
            "the medication {patient_id} was last prescribed",
            "the most recent prescription drug of {patient_id}",
            "the newest medicine on the prescription list of {patient_id}",
            "the last drug prescribed to {patient_id}",
            "the medicine {patient_id} was most recently prescribed",
            "the drug on the latest prescription of {patient_id}",
            "the medication on the newest prescription for {patient_id}",
            "the drug most recently prescribed to {patient_id}",
            "the medicine on the last prescription of {patient_id}",
            "the latest medication prescribed for {patient_id}",
            "the drug {patient_id} got on their last prescription",
        ),
        "prescriber_id": (
            "the doctor who wrote the latest prescription of {patient_id}",
            "the doctor who last prescribed for {patient_id}",
            "the physician behind the most recent prescription of {patient_id}",
            "the doctor who signed the latest prescription of {patient_id}",
            "the prescribing doctor on the last script of {patient_id}",
            "the doctor behind the newest prescription for {patient_id}",
            "whoever last prescribed medication to {patient_id}",
            "the doctor who issued the most recent prescription for {patient_id}",
            "the physician who last wrote a prescription for {patient_id}",
            "the clinician who signed off on the latest prescription of {patient_id}",
            "the doctor who prescribed the latest medication for {patient_id}",
            "the physician on the latest prescription of {patient_id}",
            "the prescriber of the newest prescription for {patient_id}",
            "the doctor named on the last prescription of {patient_id}",
            "the doctor who wrote the most recent script for {patient_id}",
            "the clinician behind the latest prescription of {patient_id}",
        ),
    },
)
def get_latest_prescription(patient_id: PatientId) -> tuple[Drug, int, DoctorId, DoctorName]:
    """Get the most recently prescribed drug of a patient.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".

    Returns:
        drug_name: the most recently prescribed drug (generic name).
        dose_mg: the prescribed dose per intake (milligrams).
        prescriber_id: the prescribing doctor (their doctor id).
        prescriber_name: the prescribing doctor's full name.
    """
    latest = _patient(patient_id)["prescriptions"][-1]
    return latest["drug"], latest["dose_mg"], latest["doctor_id"], _doctor(latest["doctor_id"])["name"]


@toolbox.tool(
    asks=(
        "what class of drug is {drug_name}, and what's its maximum daily dose?",
        "look up the drug class and maximum daily dose of {drug_name}",
        "what's the most an adult may take per day of {drug_name}, and which drug class is it in?",
        "what type of medication is {drug_name}, and how much of it can be taken in a day at most?",
        "give me the pharmacological class of {drug_name} and its daily dose limit",
        "I want to double-check {drug_name}. Which drug class does it belong to, and what's the top daily dose?",
        "what is the 24-hour limit of {drug_name} for adults, and what family of drugs does it belong to?",
        "find the class and max daily dose of {drug_name}",
        "is there a daily ceiling for {drug_name}? Tell me the maximum dose and the drug class.",
        "tell me the class of {drug_name} and the highest dose allowed in a day",
        "how much of {drug_name} can an adult take in a day at most, and what kind of drug is it?",
        "I'm not familiar with {drug_name}. What class is it, and what's the maximum daily dose?",
        "get the drug class of {drug_name} and its maximum dose per day",
        "what category of medicine does {drug_name} fall under, and what's the daily upper limit?",
        "what's the ceiling dose per day of {drug_name}, and which class does it belong to?",
        "remind me what group of drugs {drug_name} belongs to and how much can be given daily at most",
        "pull up the reference entry for {drug_name} with its class and maximum daily dose",
        "what's the class of {drug_name}, and how much can be taken per day at most?",
        "look up {drug_name}: its drug class and the maximum daily dose",
        "tell me which class {drug_name} is in and its daily maximum",
        "what is the most {drug_name} one may take in a day, and what class of drug is it?",
        "find the pharmacological class and the daily dose limit of {drug_name}",
        "what's the upper daily dose of {drug_name}, and what drug class does it belong to?",
        "give me the drug class and the highest daily dose for {drug_name}",
    ),
)
def get_drug_information(drug_name: Drug) -> tuple[str, int]:
    """Get the pharmacological class and the maximum daily dose of a drug.

    Args:
        drug_name: Generic drug name, e.g. "lisinopril".

    Returns:
        drug_class: the drug's pharmacological class.
        max_daily_dose_mg: the maximum daily dose for adults (milligrams).
    """
    drug_class, _, max_dose, _ = DRUGS[_drug(drug_name)]
    return drug_class, max_dose


@toolbox.tool(
    asks=(
        "do {first_drug} and {second_drug} interact? How serious is it, and what should be done?",
        "check whether {first_drug} can be taken together with {second_drug}, how severe any interaction is and what the advice is",
        "is it safe to combine {first_drug} with {second_drug}? How severe is the interaction, and what's the advice?",
        "can {first_drug} be taken alongside {second_drug}? Tell me how serious any interaction is and what to do about it.",
        "look up the interaction between {first_drug} and {second_drug}, with its severity and the clinical advice",
        "what happens if someone takes {first_drug} and {second_drug} together? Rate the interaction and give the advice.",
        "a patient on {first_drug} has just been given {second_drug}. Is that a risky mix, how serious is it, and what's advised?",
        "screen {first_drug} against {second_drug} for interactions and report the severity and the advice",
        "how severe is the interaction of {first_drug} with {second_drug}, and what do you advise?",
        "is there an interaction between {first_drug} and {second_drug}? How bad is it, and what's the advice?",
        "can {first_drug} be given with {second_drug}? Tell me the severity of any interaction and what to do.",
        "check {first_drug} with {second_drug} for an interaction, and tell me how severe it is and what's recommended",
        "how dangerous is it to mix {first_drug} and {second_drug}, and what's the recommendation?",
        "run an interaction check on {first_drug} and {second_drug}; I need the severity and the advice.",
        "does {first_drug} clash with {second_drug}? Give me the severity and the guidance.",
        "what's the interaction risk of {first_drug} together with {second_drug}, and what should be done about it?",
        "tell me if {first_drug} and {second_drug} interact, how seriously, and what the advice is",
        "are {first_drug} and {second_drug} okay together? Rate any interaction and give me the advice.",
        "what's the interaction between {first_drug} and {second_drug}, how severe, and what do you recommend?",
        "check if {first_drug} interacts with {second_drug}; give me the severity and the advice",
        "would {first_drug} and {second_drug} together be a problem? Tell me the severity and the advice.",
        "find out whether {first_drug} and {second_drug} interact, how badly, and what to do",
        "is {first_drug} compatible with {second_drug}? I need the interaction severity and the advice.",
        "look for an interaction between {first_drug} and {second_drug} and report its severity and the recommendation",
        "how risky is {first_drug} with {second_drug}? Tell me the severity and what's advised.",
    ),
    sense=(distinct("first_drug", "second_drug"),),
)
def check_drug_interaction(first_drug: Drug, second_drug: Drug) -> tuple[str, str]:
    """Check two drugs for a known interaction.

    Args:
        first_drug: Generic name of the first drug, e.g. "warfarin".
        second_drug: Generic name of the second drug, e.g. "ibuprofen".

    Returns:
        severity: the interaction severity (none, minor, moderate, major, or duplicate for the same drug twice; two drugs of one class are a moderate duplication).
        advice: the clinical advice for taking both.
    """
    a, b = _drug(first_drug), _drug(second_drug)
    if a == b:
        return "duplicate", f"both are {a}: taking it twice doubles the dose; keep to one prescription"
    if frozenset({a, b}) in INTERACTIONS:
        return INTERACTIONS[frozenset({a, b})]
    if DRUGS[a][0] == DRUGS[b][0]:  # two statins, two SSRIs: the same therapy twice
        return "moderate", f"both are {DRUGS[a][0]}s: taking two duplicates the therapy; ask the prescriber to keep one"
    return "none", "no known interaction; take both as prescribed"


@toolbox.tool(
    asks=(
        "which pharmacy in {city} holds the largest stock of {drug_name}, where is it, and how many packs does it have?",
        "find the best-stocked pharmacy for {drug_name} in {city}, with its address and the number of packs on hand",
        "which pharmacy in {city} has the most {drug_name} in stock? Give me its name, its address and how many packs it holds.",
        "I need to fill a prescription for {drug_name} in {city}. Which pharmacy has the most packs, how many, and what's the address?",
        "locate the pharmacy in {city} with the biggest supply of {drug_name}, and include the address and the pack count",
        "what pharmacy in {city} is best stocked with {drug_name}? Tell me its address and stock level.",
        "search for {drug_name} in the pharmacies of {city} and tell me which has the largest stock, how many packs, and the address",
        "is {drug_name} in stock anywhere in {city}? Name the pharmacy with the most packs, the count and its address.",
        "get the pharmacy name, address and pack count of the top stockist of {drug_name} in {city}",
        "the usual pharmacy has run out of {drug_name}. Which one in {city} has the most packs left, how many, and at what address?",
        "who has the most {drug_name} on the shelf in {city}? I need the pharmacy, its address and how many packs.",
        "which pharmacy in {city} has the most packs of {drug_name}? Give me its name, address and how many packs.",
        "find me the pharmacy in {city} with the most packs of {drug_name}, its address and the count",
        "where can I find {drug_name} in {city}? I want the pharmacy with the biggest stock, its address and the number of packs.",
        "look for {drug_name} across the pharmacies in {city} and tell me which holds the most, where it is and how many packs",
        "which chemist in {city} stocks the most packs of {drug_name}, at what address, and how many packs does it have?",
        "check pharmacy stock of {drug_name} in {city} and give me the best-stocked one, its address and its pack count",
        "name the pharmacy in {city} with the largest supply of {drug_name}, with its address and how many packs are on hand",
        "tell me the pharmacy with the highest stock of {drug_name} in {city}, its address and the number of packs it holds",
        "get me the pharmacy in {city} best supplied with {drug_name}, plus its street address and pack count",
        "which pharmacy in {city} has the largest stock of {drug_name}, at what address, and how many packs?",
        "find where in {city} I can get the most packs of {drug_name}: the pharmacy, its address and the pack count",
        "look up pharmacy stock for {drug_name} in {city}; tell me the best-stocked pharmacy, its address and how many packs it has",
        "tell me which pharmacy in {city} carries the most packs of {drug_name}, plus its address and the number of packs",
        "where's the biggest stock of {drug_name} in {city}? Give me the pharmacy, the address and the packs on hand.",
        "search {city} for the pharmacy with the most packs of {drug_name} and give me its name, address and pack count",
        "what pharmacy has {drug_name} in the largest quantity in {city}, where is it, and how many packs?",
        "point me to the pharmacy in {city} with the most packs of {drug_name} in stock, with its address and how many packs",
        "check which pharmacy in {city} holds the most packs of {drug_name}, and give me its address and count",
        "get the best-stocked pharmacy for {drug_name} in {city}, its address, and the packs it has",
    ),
    gives={
        "pharmacy_address": (
            "the address of the best-stocked pharmacy for {drug_name} in {city}",
            "the location of the pharmacy in {city} with the biggest supply of {drug_name}",
            "the address of the pharmacy in {city} that is best stocked with {drug_name}",
        ),
    },
)
def find_pharmacy_with_stock(drug_name: Drug, city: HomeCity) -> tuple[Pharmacy, Address, int]:
    """Find the pharmacy in a city holding the most units of a drug.

    Args:
        drug_name: Generic drug name, e.g. "amoxicillin".
        city: City to search in, e.g. "Madrid".

    Returns:
        pharmacy_name: the best-stocked pharmacy.
        pharmacy_address: the pharmacy's street address.
        units: the packs of the drug the pharmacy holds.
    """
    w = _w()
    drug = _drug(drug_name)
    _city(city)
    best = max((row["stock"][drug], name) for name, row in sorted(w.pharmacies.items()) if row["city"] == city)
    return best[1], w.pharmacies[best[1]]["address"], best[0]


@toolbox.tool(
    asks=(
        "what was the latest {test} result of {patient_id}, when was it taken, and is it in the normal range?",
        "look up the value, range flag and date of the most recent {test} test of {patient_id}",
        "how did the last {test} test of {patient_id} come out, was it normal, and when was it taken?",
        "pull up the newest {test} reading of {patient_id}, with the date and whether it's low, normal or high",
        "I'd like to see the latest {test} value of {patient_id}, the date of the sample and whether it's in range.",
        "is the {test} of {patient_id} normal? Give me the latest value and when the sample was drawn.",
        "check the lab results of {patient_id} for {test}; what was the most recent value, on what date, and how does it compare to the reference range?",
        "what {test} level did {patient_id} have at the last blood test, on which date, and was it high, low or normal?",
        "get the last {test} value on file for {patient_id}, plus its date and range flag",
        "before the follow-up, I want the latest {test} figure for {patient_id}, whether it's flagged low or high, and the sample date.",
        "{patient_id} is asking about their {test}. What did the last result show, when was it drawn, and is it within range?",
        "quote me the most recent {test} reading of {patient_id} along with the collection date and whether it falls inside the reference interval",
        "what did the most recent {test} test of {patient_id} show, on what date, and was it flagged?",
        "give me the latest {test} result for {patient_id}, the date it was taken, and whether it's high, low or normal",
        "find the last {test} value of {patient_id}, the sample date and the range flag",
        "look at the lab history of {patient_id} and report the newest {test} value, its date and whether it's in range",
    ),
)
def get_lab_result(patient_id: PatientId, test: LabTest) -> tuple[float, str, str]:
    """Get a patient's most recent result for a lab test.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".
        test: Lab test name, e.g. "HbA1c", "LDL cholesterol" or "vitamin D".

    Returns:
        value: the measured value (in the test's unit).
        flag: the reading against the reference range (low, normal or high).
        test_date: the date the sample was taken (YYYY-MM-DD).
    """
    w = _w()
    _patient(patient_id)
    require(test in LAB_TESTS, f"unknown lab test {test!r}; available tests: {', '.join(LAB_TESTS)}")
    unit, low, high, (lo, hi) = LAB_TESTS[test]
    value = round(lo + (hi - lo) * w.figure("lab", patient_id, test), 1 if unit != "mIU/L" else 2)
    flag = "low" if value < low else "high" if value > high else "normal"
    taken = NOW.date() - timedelta(days=3 + int(170 * w.figure("lab-date", patient_id, test)))
    return value, flag, taken.isoformat()


@toolbox.tool(
    asks=(
        "when did {patient_id} last have a dose of {vaccine} vaccine, and when is the next one due?",
        "check the {vaccine} vaccination record of {patient_id} for the date of the last dose and the next due date",
        "is {patient_id} due for their next {vaccine} dose? Give me the last dose and the next due date.",
        "when was the last {vaccine} shot of {patient_id}, and when is the booster due?",
        "look up when {patient_id} had the latest {vaccine} dose and when the next one falls due",
        "has {patient_id} had the {vaccine} jab recently? Tell me the date of the last one and when the next is due.",
        "I'm checking whether {patient_id} is up to date on {vaccine}. When was the last dose, and when is the next one due?",
        "find the latest {vaccine} dose and the next due date of {patient_id}",
        "when does {patient_id} need the next {vaccine} vaccination, and when was the previous one given?",
        "{patient_id} is travelling soon and wants to know about {vaccine}: when was the last dose given, and when does the next fall due?",
        "for an employer's health form I need the {vaccine} history of {patient_id}: date of the last dose and date the next is due.",
        "confirm the {vaccine} dates on file for {patient_id}: the most recent shot and when the following one is due",
        "what are the dates of the last and the next {vaccine} dose of {patient_id}?",
        "look up the {vaccine} vaccination history of {patient_id}: when the last dose was given and when the next is due",
        "tell me when {patient_id} had the last {vaccine} dose and when they're due for the next",
        "when was {patient_id} last given a {vaccine} vaccine, and when should the next dose be?",
    ),
)
def get_vaccination_record(patient_id: PatientId, vaccine: Vaccine) -> tuple[str, str]:
    """Get when a patient last received a vaccine and when the next dose is due.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".
        vaccine: Vaccine name, e.g. "influenza", "tetanus" or "COVID-19".

    Returns:
        last_dose: the date of the latest dose (YYYY-MM-DD).
        next_due: the date the next dose is due (YYYY-MM-DD; may be past when overdue).
    """
    w = _w()
    _patient(patient_id)
    require(vaccine in VACCINES, f"unknown vaccine {vaccine!r}; records cover {', '.join(VACCINES)}")
    interval = VACCINES[vaccine]
    last = NOW.date() - timedelta(days=int(interval * (0.1 + 1.1 * w.figure("vaccine", patient_id, vaccine))))
    return last.isoformat(), (last + timedelta(days=interval)).isoformat()


@toolbox.tool(
    asks=(
        'search the health directory for "{query}"[ and show me at most {max_results}]',
        'which clinics match "{query}"?',
        'look up clinics for "{query}" in the health directory',
        'find clinics and hospitals matching "{query}"[, no more than {max_results}]',
        "I'm searching for \"{query}\". Which clinics come up?",
        'list the clinics that come up for "{query}"[, the first {max_results} only]',
        'what does the health directory return for "{query}"?',
        'give me the names of clinics matching "{query}"[, up to {max_results} of them]',
        'run a directory search on "{query}" and tell me which clinics it finds',
        'are there any clinics for "{query}"? List them[, at most {max_results}].',
    ),
    tags=("search",),
)
def search_health_directory(query: Annotated[str, Kind("health_search_terms")], max_results: int = 5) -> list[Clinic]:
    """Search clinics and hospitals by words in their name, city or the specialties they offer.

    Args:
        query: Words to look for, e.g. "cardiology paris"; every word must match.
        max_results: Maximum number of clinic names to return (1-20).

    Returns:
        clinic_names: the matching clinics (alphabetical).
    """
    w = _w()
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for name, row in sorted(w.clinics.items()):
        text = f"{name} {row['city']} {' '.join(row['specialties'])}".lower()
        if all(word in text for word in words):
            hits.append(name)
    return hits[:max_results]


@toolbox.tool(
    asks=(
        "what's the address and phone number of {clinic_name}, and which city is it in?",
        "give me the address, city and reception number of {clinic_name}",
        "how do I reach {clinic_name}? I need its address, city and phone.",
        "where exactly is {clinic_name}, and what number do I call? Include the city.",
        "look up the street address, city and phone number of {clinic_name}",
        "I'm going to {clinic_name}. What's the street address, the city, and the front desk number?",
        "find the location and phone line of {clinic_name}, city included",
        "get me the full address and reception phone of {clinic_name}, with the city",
    ),
    gives={
        "clinic_address": (
            "the address of {clinic_name}",
            "the street address of {clinic_name}",
            "the location of {clinic_name}",
            "the address on file for {clinic_name}",
        ),
    },
)
def get_clinic_details(clinic_name: Clinic) -> tuple[Address, str, Phone]:
    """Get the street address, city and phone number of a clinic.

    Args:
        clinic_name: Exact clinic name, e.g. "Paris General Hospital".

    Returns:
        clinic_address: the clinic's street address.
        clinic_city: the clinic's city.
        clinic_phone: the clinic's reception phone number.
    """
    w = _w()
    require(clinic_name in w.clinics, f"unknown clinic {clinic_name!r}; search the health directory for exact names")
    row = w.clinics[clinic_name]
    return row["address"], row["city"], row["phone"]


@toolbox.tool(
    asks=(
        "how much of a visit for {specialty} does the plan of {patient_id} cover, and what's the copay?",
        "check what share of a visit for {specialty} the insurance of {patient_id} pays and what the copay is",
        "{patient_id} needs to see someone for {specialty}. What share does their plan cover, and what copay applies?",
        "what percentage of a visit for {specialty} is covered for {patient_id}, and how much is the copay?",
        "is a visit for {specialty} covered under the plan of {patient_id}? Tell me the percent covered and the copay in local currency.",
        "look up how much the plan of {patient_id} pays for {specialty}, in percent, and the copay per visit",
        "before {patient_id} sees anyone for {specialty}, I'd like to know the share the insurer covers and the copay per visit.",
        "what does the plan of {patient_id} cover for {specialty}, in percent, and what's the copayment?",
        "would the insurance of {patient_id} cover a visit for {specialty}? How much, and what copay is due?",
        "I'm filling in a referral for {patient_id} to {specialty}. How much of the visit will the insurer reimburse, and what does the patient pay per visit?",
        "before we send {patient_id} to {specialty}, work out the coverage percentage and the per-visit copay on their policy.",
        "what will {patient_id} pay out of pocket for each visit for {specialty}, and what percentage does the policy pick up?",
        "quote the coverage for {specialty} under the policy of {patient_id}: the percent paid by the insurer and the copay, with its currency",
        "the front desk needs the copay of {patient_id} for {specialty}, plus how much of the bill insurance absorbs.",
        "look up the benefits of {patient_id} for {specialty}: what percentage is reimbursed and how big is the copayment?",
        "does the health plan of {patient_id} extend to {specialty}? Figure out the covered share and the copay owed at each appointment.",
        "{patient_id} asked me what an appointment for {specialty} would cost them. Find the percentage their insurer covers and the copay amount.",
        "coverage check on a visit for {specialty} by {patient_id}: percent covered and copay.",
    ),
    gives={
        "copay, currency": (
            "the copay {patient_id} pays for a visit for {specialty}",
            "the visit copay for {specialty} on the plan of {patient_id}",
            "the copayment {patient_id} owes for each visit for {specialty}",
            "the amount {patient_id} pays out of pocket per visit for {specialty}",
        ),
        "copay": (
            "the copay {patient_id} pays for a visit for {specialty}",
            "the visit copay for {specialty} on the plan of {patient_id}",
            "the copayment {patient_id} owes for each visit for {specialty}",
            "the amount {patient_id} pays out of pocket per visit for {specialty}",
        ),
        "currency": (
            "the currency of the copay {patient_id} pays for {specialty}",
            "the currency of the visit copay for {specialty} on the plan of {patient_id}",
            "the currency the copayment of {patient_id} for {specialty} is charged in",
        ),
    },
)
def check_insurance_coverage(patient_id: PatientId, specialty: Specialty) -> tuple[int, Copay, CurrencyCode]:
    """Check what a patient's insurance plan pays for a visit to a specialty.

    Args:
        patient_id: The patient's record id, e.g. "P-10001".
        specialty: Medical specialty of the visit, e.g. "Dermatology".

    Returns:
        coverage_percent: the share of the visit's cost beyond the copay that the plan pays (percent).
        copay: the fixed amount the patient pays first at every visit (in the currency of the patient's home country).
        currency: the copay currency.
    """
    w = _w()
    row = _patient(patient_id)
    _specialty(specialty)
    currency = _currency_of(row["city"])
    copay = round(PLAN_COPAY_USD[row["plan"]] * CURRENCY_BY_CODE[currency].per_usd, 2)
    return w.coverage[row["plan"]][specialty], copay, currency


@toolbox.tool(
    asks=(
        "verify the insurance on file for my booking account, and tell me the status and how long it's valid",
        "get the insurance on my account verified so I can book; what's the result, and until when does it run?",
        "check the insurance on file with the insurer and tell me the outcome and until when it is valid",
        "have my insurance on file verified with the insurer. Did it go through, and when does the cover end?",
        "please confirm my insurance with the insurer; what status comes back, and what's the expiry date?",
        "run the insurance verification on my account and report the status and the valid-until date",
        "my bookings need verified insurance. Verify it and tell me the status and the end date of the cover.",
        "can you validate my insurance details with the insurer? Let me know the verification status and when coverage expires.",
        "make sure the insurance on my booking account is verified, and tell me the status and the expiry",
    ),
    requires=("data_sharing_consent",),
    tags=("state_change",),
)
def verify_insurance_on_file() -> tuple[str, str]:
    """Verify the insurance on file for the booking account with the insurer, which unblocks bookings.

    Returns:
        status: the verification status.
        valid_until: the date the verified coverage runs to (YYYY-MM-DD).
    """
    w = _w()
    require(w.state.get("data_sharing_consent", False),
            "the insurer cannot be contacted without a signed data-sharing consent: sign the data-sharing consent first")
    w.state["insurance_verified"] = True
    return "verified", date(NOW.year, 12, 31).isoformat()


@toolbox.tool(
    asks=(
        "sign the data-sharing consent for my insurer and tell me the date",
        "I agree to share booking data with my insurer. Sign the consent and tell me the date.",
        "put my signature on the insurer's data-sharing consent and confirm when it was signed",
        "give my consent for the clinic to share booking data with my insurer, and tell me the signing date",
        "please sign the insurer's data-sharing form on my behalf; what date does it show?",
        "record my consent to data sharing with the insurance company and tell me when it was recorded",
        "I'm fine with my insurer seeing my booking data. Sign the consent and give me the date.",
        "sign off on the data-sharing agreement with my insurer; on what date was it signed?",
        "complete the insurer's data-sharing consent for me and confirm the signature date",
    ),
    tags=("state_change",),
)
def sign_data_sharing_consent() -> str:
    """Sign the consent that lets clinics share booking data with the insurer.

    Returns:
        signed_on: the date the consent was signed (YYYY-MM-DD).
    """
    _w().state["data_sharing_consent"] = True
    return NOW.date().isoformat()


@toolbox.facts_about("patient_id")
def _patient_facts(w: HealthWorld, patient_id: str) -> dict:
    row = w.patients[patient_id]
    return {"person_name": row["name"], "city": row["city"]}


@toolbox.facts_about("doctor_id")
def _doctor_facts(w: HealthWorld, doctor_id: str) -> dict:
    row = w.doctors[doctor_id]
    return {"city": row["city"], "medical_specialty": row["specialty"], "clinic_name": row["clinic"]}


@toolbox.facts_about("medical_appointment_id")
def _appointment_facts(w: HealthWorld, appointment_id: str) -> dict:
    row = w.state["appointments"][appointment_id]
    return {"patient_id": row["patient_id"], "doctor_id": row["doctor_id"], "city": w.doctors[row["doctor_id"]]["city"]}


@toolbox.facts_about("clinic_name")
def _clinic_facts(w: HealthWorld, clinic_name: str) -> dict:
    return {"city": w.clinics[clinic_name]["city"]}



# --- goals: what a person wants, and the tools that serve it ------------------------------
# Most tools speak from a clinic's desk about a patient by record ("book patient P-10020");
# a few speak from the patient ("where in Lyon can I get ...", "verify my insurance"). Each goal
# keeps to one of the two, and to one errand: a referral, a chart, a prescription. No goal
# crosses seeds: the one natural errand, getting to the clinic or pharmacy from where I am,
# draws my position in another city than the clinic's, and the place nearest a clinic may be a
# museum as well as a pharmacy.

toolbox.goal(
    "book a patient in with a specialist",
    wants="find the right specialist for a patient in their city, check their cover and book the first free slot",
    role="clinic receptionist",
    tools=("find_patient_id", "get_patient_profile", "match_symptom_to_specialty", "find_top_doctor",
           "get_doctor_details", "get_next_available_slot", "book_appointment", "check_insurance_coverage",
           "get_latest_prescription", "get_clinic_details", "cancel_appointment"),
    # The insurance and the data-sharing consent are the patient's to settle, not the desk's.
    conditions=(),
)
toolbox.goal(
    "go over a patient's chart",
    wants="read a patient's record before a visit: details, latest results, vaccinations and medication",
    role="nurse",
    tools=("find_patient_id", "get_patient_profile", "get_lab_result", "get_vaccination_record",
           "get_latest_prescription", "get_drug_information", "get_doctor_details"),
)
toolbox.goal(
    "sort out a patient's prescription",
    wants="check a patient's latest prescription is safe and find a pharmacy in their city that has it",
    role="nurse",
    tools=("find_patient_id", "get_patient_profile", "get_latest_prescription", "get_drug_information",
           "check_drug_interaction", "find_pharmacy_with_stock", "get_doctor_details"),
)
# The patient's own errands. Moving an appointment and cancelling it are never one request
# (both name the same appointment), so they serve different goals.
toolbox.goal(
    "find a doctor for my symptoms",
    wants="find the best doctor for what ails me, when they are free and where their clinic is, and get my "
          "insurance ready for booking",
    role="patient",
    tools=("match_symptom_to_specialty", "find_top_doctor", "get_doctor_details", "get_next_available_slot",
           "get_clinic_details", "search_health_directory", "verify_insurance_on_file", "sign_data_sharing_consent",
           "reschedule_appointment"),
)
toolbox.goal(
    "get my medicine",
    wants="find the pharmacy in my city with the most of my drug, and how to take it safely",
    role="patient",
    tools=("find_pharmacy_with_stock", "get_drug_information", "check_drug_interaction"),
)
