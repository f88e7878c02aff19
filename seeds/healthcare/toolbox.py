"""Healthcare: patients, doctors and clinics, appointment booking, prescriptions and drugs,
pharmacies, lab results, vaccinations and insurance coverage."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after, iso_day
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    city_currency,
    phone_number,
)
from factory.toolbox.sense import around, distinct, together

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
    return [day_after(k) for k in range(1, 29)]


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
)
toolbox.condition(
    "data_sharing_consent",
    holds=lambda w: bool(w.state.get("data_sharing_consent")),
    broken_state={"data_sharing_consent": False},
    fix=("sign_data_sharing_consent", {}),
    consent="sign",
)

# People know a doctor as the best cardiologist in town or the one who wrote a prescription;
# "D-2214" is the directory's own number. Patient record and appointment numbers are on the
# papers people hold, so they are stated.
toolbox.internal_kinds("doctor_id")


# --- tools ---------------------------------------------------------------------------------


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(tags=("canonicalise",))
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


@toolbox.tool(sense=(around("day", before=0, after=120),))
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
    start = max(iso_day(day), NOW.date())
    require(start <= LAST_SLOT_DAY, f"the booking calendar only runs to {LAST_SLOT_DAY}; pick an earlier date")
    current = start
    while current <= LAST_SLOT_DAY:
        for slot in _slots_of_day(current):
            if not w.slot_taken(doctor_id, slot):
                return slot.strftime("%Y-%m-%dT%H:%M"), doctor_id
        current += timedelta(days=1)
    raise ToolError(f"doctor {doctor_id} has no free slot between {start} and {LAST_SLOT_DAY}")


@toolbox.tool(sense=(around("slot", before=0, after=120),), requires=("insurance_verified",), tags=("state_change",))
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


@toolbox.tool(tags=("state_change", "ends"))
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(sense=(distinct("first_drug", "second_drug"),))
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(tags=("search",))
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(requires=("data_sharing_consent",), tags=("state_change",))
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


@toolbox.tool(tags=("state_change",))
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

