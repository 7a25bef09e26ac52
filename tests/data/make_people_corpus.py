"""Write tests/data/people_corpus.json: a people table and labelled notes (R-SAVE-3, R-SAVE-3b).

Deterministic: the same seed gives the same file, byte for byte. Run it again after a change:

    .venv/bin/python tests/data/make_people_corpus.py

What it writes:

* ``people``: a table of 320 people of many cultures (Hispanic, Chinese, Indian, Arabic,
  Nigerian, Ghanaian, Kenyan, Slavic, Japanese, Korean, Vietnamese, Nordic, German and
  Dutch, French, Portuguese and Brazilian, Turkish and Persian, Indonesian, English),
  some with accents, hyphens, particles ("van der", "de la", "bin") and single names,
  each with an email, a phone number (E.164) and an employee id.
* ``notes``: key + value notes of at most 1 KB, each with a ``label``:

  - ``names_record``: names a person of the table, in varied forms (full name, title and
    surname, lower case, accents dropped, email, phone in another format, employee id,
    first name with a cue). These are for the table-record check (R-SAVE-3).
  - ``names_person_other``: names some other person, who is not in the table
    (R-SAVE-3b: should be held). Built from a separate part of the name lists, so that
    the people of these notes are not the people of the table.
  - ``benign``: (at least 300) notes about a table that use words that are also parts of
    names (Will, May, Rose, Hope, Jordan, China, Paris, Grant, Summer, Bill, Mark, Frank,
    Lane, Young, King, ...): should not be held.
  - ``benign_tech``: (at least 300) technical notes naming software and services that are
    also names or surnames (Apache Kafka, Django, Jackson, Ruby, Rails, Julia, Pandas,
    Flask, Spring Boot, Hadoop, Jenkins, Ansible, Grafana, Kubernetes, ...), months and
    days: should not be held.

The name lists here were written by hand for this corpus; they are not taken from the
detector's gazetteer, so the held rate measures the detector, not a copy of its own lists.
"""

from __future__ import annotations

import json
import random
import unicodedata
from pathlib import Path

SEED = 20240531
OUT = Path(__file__).with_name("people_corpus.json")
TABLE_SIZE = 320

# culture: (first names, last names, phone country code, phone national prefix digits,
#           family-name-first order)
CULTURES: dict[str, dict] = {
    "hispanic": {
        "first": "José María Ana Luis Carmen Javier Lucía Diego Sofía Alejandro Valentina "
        "Mateo Camila Andrés Isabel Pablo Gabriela Fernando Ximena Rodrigo Guadalupe "
        "Maximiliano Rocío Esteban".split(),
        "last": "García López Martínez Rodríguez Hernández González Pérez Sánchez Ramírez "
        "Torres Flores Rivera Gómez Díaz Morales Ortiz Castillo Jiménez Vargas Ruiz "
        "Cifuentes Echeverría|de_la_Cruz del_Río de_León Núñez".replace("|", " ").split(),
        "cc": "52",
    },
    "chinese": {
        "first": "Wei Fang Xiaoming Jing Hao Yan Lei Tao Mei Jun Yichen Zihan Haoran Xinyi "
        "Yuting Zhiwei Qiang Lihua Jiayi Zhenyu Ruolan Shuang".split(),
        "last": "Wang Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Zhu Hu Guo Lin Gao Luo "
        "Zheng Liang Xie Tang Deng".split(),
        "cc": "86",
        "family_first": True,
    },
    "indian": {
        "first": "Priya Rahul Ananya Arjun Deepika Vikram Sneha Rohan Kavya Aditya Lakshmi "
        "Sanjay Meera Karthik Divya Suresh Pooja Nikhil Anjali Venkatesh Harpreet "
        "Gurpreet Ishaan Tanvi".split(),
        "last": "Sharma Patel Iyer Reddy Nair Gupta Singh Kumar Mehta Rao Menon Chatterjee "
        "Banerjee Desai Joshi Pillai Krishnan Subramanian Agarwal Kapoor Bhattacharya "
        "Venkataraman Chaudhary Srinivasan".split(),
        "cc": "91",
    },
    "arabic": {
        "first": "Mohammed Fatima Ahmed Aisha Omar Layla Yusuf Mariam Khalid Noor Hassan "
        "Zainab Tariq Salma Karim Huda Rami Yasmin Faisal Rania Abdulrahman Lina".split(),
        "last": "Al-Rashid Haddad Khoury Mansour Nasser Saleh Hamdan Abdullah El-Sayed "
        "Farouk Aziz Ibrahim Khalil Darwish Suleiman Najjar Awad Al-Masri Al-Farsi "
        "bin_Zayed Qasim Tahan".split(),
        "cc": "971",
    },
    "nigerian": {
        "first": "Chidi Ngozi Oluwaseun Adaeze Emeka Folake Tunde Chiamaka Ifeanyi Yetunde "
        "Obinna Funmilayo Babajide Amaka Segun Nneka Kelechi Bukola Uche Temitope "
        "Oluwadamilare Chinonso".split(),
        "last": "Okafor Adeyemi Okonkwo Balogun Eze Ogunleye Nwosu Adebayo Chukwu Okoro "
        "Afolabi Ibekwe Oyelaran Nnamdi Olawale Uzor Akande Onyeka Bello Oyelaran-Adeyemi "
        "Abubakar Oladipo".split(),
        "cc": "234",
    },
    "ghanaian_kenyan": {
        "first": "Kwame Ama Kofi Akosua Yaw Efua Wanjiru Kamau Achieng Otieno Baraka Zawadi "
        "Nana Abena Kwabena Wambui Njeri Kipchoge".split(),
        "last": "Mensah Asante Owusu Boateng Osei Agyeman Mwangi Odhiambo Njoroge Kiplagat "
        "Ochieng Wafula Appiah Darko Kimani Otieno".split(),
        "cc": "233",
    },
    "slavic": {
        "first": "Dmitri Katarzyna Ivan Olga Tomasz Svetlana Piotr Natalia Aleksandr "
        "Agnieszka Milan Jelena Bogdan Irina Wojciech Zofia Nikola Anastasia Miroslav "
        "Ludmila Yaroslav Małgorzata".split(),
        "last": "Ivanov Kowalski Petrov Nowak Novák Smirnova Wiśniewski Horvat Popović "
        "Volkov Dvořák Kuznetsova Zieliński Jovanović Sokolov Łukasik Černý Kovalenko "
        "Lewandowska Marković Shevchenko Grzybowski".split(),
        "cc": "48",
    },
    "japanese": {
        "first": "Haruto Yui Sota Aoi Ren Hina Takeshi Yuki Kenji Sakura Hiroshi Emi Daiki "
        "Naomi Kaito Ayumi Ryota Misaki Shota Keiko Tsubasa Mitsuki".split(),
        "last": "Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato "
        "Yoshida Yamada Sasaki Matsumoto Inoue Kimura Hayashi Shimizu Ikeda Fujiwara "
        "Okamoto Nishimura".split(),
        "cc": "81",
    },
    "korean": {
        "first": "Min-jun Seo-yeon Ji-woo Do-hyun Ha-eun Jae-won Soo-ah Hyun-woo Ye-jin "
        "Sung-min Ji-hoon Eun-ji Tae-yang Mi-rae Dong-hyun Yoo-na Seung-ho Na-yeon "
        "Jun-seo Hye-jin".split(),
        "last": "Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin Seo Kwon Hwang Ahn "
        "Song Yoo Hong Jeon".split(),
        "cc": "82",
        "family_first": True,
    },
    "vietnamese": {
        "first": "Minh Thuy Anh Huong Duc Linh Quang Tuan Hieu Ngoc Khanh Phuong Thanh Trang "
        "Dung Hoa Bao Thao Nhung Vy".split(),
        "last": "Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng Bùi Đỗ Hồ Ngô Dương Lý".split(),
        "middle": "Văn Thị Đức Ngọc Thu Minh Hữu".split(),
        "cc": "84",
        "family_first": True,
    },
    "nordic": {
        "first": "Søren Astrid Lars Ingrid Bjørn Freya Magnus Sigrid Erik Linnea Henrik Maja "
        "Anders Solveig Thorvald Elin Nils Katrine Oskar Hedda Åsa Jørgen".split(),
        "last": "Johansson Andersen Nielsen Lindqvist Halvorsen Eriksson Bergström Jensen "
        "Solberg Karlsson Dahl Virtanen Korhonen Håkansson Sørensen Lundgren Nyberg Strand "
        "Holm Aaltonen Gunnarsdóttir Þórsson".split(),
        "cc": "46",
    },
    "german_dutch": {
        "first": "Jürgen Anneke Maarten Greta Lukas Femke Matthias Sanne Wolfgang Lieke "
        "Friederike Joost Hannelore Sjoerd".split(),
        "last": "van_der_Berg de_Vries Müller Schröder van_Dijk Fischer Janssen Weiß "
        "von_Bülow Hoffmann Vermeulen van_den_Heuvel Zimmermann Schäfer".split(),
        "cc": "49",
    },
    "french": {
        "first": "Amélie François Chloé Théo Hélène Étienne Margaux Benoît Céline Jérôme "
        "Anne-Sophie Jean-Luc Gaëlle Loïc".split(),
        "last": "Lefèvre Dubois Moreau Girard Rousseau Fontaine Chevalier Bonnet Mercier "
        "Deschamps Lemaire Faure".split(),
        "cc": "33",
    },
    "lusophone": {
        "first": "João Beatriz Thiago Larissa Gonçalo Inês Rafaela Caio Leandro Luana".split(),
        "last": "Silva Santos Oliveira Souza Pereira Carvalho Ferreira Almeida Ribeiro "
        "Gonçalves".split(),
        "cc": "55",
    },
    "turkish_persian": {
        "first": "Mehmet Ayşe Emre Zeynep Elif Burak Shirin Arash Parisa Dariush Leyla "
        "Kamran".split(),
        "last": "Yılmaz Kaya Demir Çelik Şahin Öztürk Hosseini Rahimi Tehrani Karimi "
        "Moradi Aydın".split(),
        "cc": "90",
    },
    "indonesian_single": {
        "first": "Budi Wulan Teguh Yanti Agus Ratna Hartono Sutrisno Dewi Wahyuni Setiawan "
        "Rudianto".split(),
        "last": [],
        "cc": "62",
    },
    "english": {
        # Real people whose first names are also common words: they must still be caught.
        "first": "Will May Rose Hope Jordan Grant Summer Bill Mark Frank Olivia Thomas "
        "Rebecca Gareth Siobhan Declan Imogen Callum".split(),
        "last": "Turner Lin Baker Mensah-Ellis Ellis Holloway Quinn Harper Davies Osei "
        "Whitfield Fairbanks Pemberton O'Sullivan McAllister Featherstone Thornbury "
        "Ashworth".split(),
        "cc": "44",
    },
}

TITLES_F = ["Ms.", "Mrs.", "Dr.", "Ms", "Prof."]
TITLES_M = ["Mr.", "Dr.", "Mr", "Prof."]
OTHER_DOMAINS = ["partnerco.com", "vendor.io", "acme-logistics.de", "gmail.com", "univ.edu"]
TABLE_DOMAIN = "example.com"

# ---------------------------------------------------------------------------------------
# Notes that name a person: templates. {n} is the name as rendered for the form.

PERSON_TEMPLATES_FULL = [
    "Lunch with {n} on Friday to review the churn dashboard.",
    "{n} owns the quarterly revenue report; send questions there.",
    "Forward the weekly export to {n} every Monday.",
    "The user's manager is {n}.",
    "Meeting notes: {n} wants the totals split by region.",
    "Escalate data quality issues to {n} before noon.",
    "{n} approved the new discount rules last week.",
    "User mentioned that {n} is on parental leave until June.",
    "Budget sign-off comes from {n} in finance.",
    "Remember: {n} is allergic to peanuts, order the vegan platter.",
    "Invoices over 10k need a second look by {n}.",
    "Interview panel for the analyst role: {n} and the user.",
    "{n} asked for the dashboard in dark mode.",
    "Don't schedule anything with {n} on Thursdays.",
    "The vendor contact is {n}; they reply slowly.",
    "cc {n} on every export email",
    "Reports go to {n}, not to the shared inbox.",
    "Thank {n} for fixing the fiscal calendar mapping.",
]
PERSON_TEMPLATES_FIRST = [
    "Ask {n} about the Q3 numbers before publishing.",
    "{n}'s birthday is on March 3, remind the user.",
    "{n} prefers CSV exports over Excel.",
    "{n} from sales wants weekly totals by store.",
    "my manager {n} reviews the board deck",
    "Ping {n} when the backfill finishes.",
    "Tell {n} the refresh moved to 6 am.",
    "{n} said the numbers for March look off.",
    "Check with {n} before deleting old rows.",
    "The user's wife {n} handles the family budget sheet.",
    "{n} from accounting needs read access.",
    "Email {n} the monthly summary.",
    "{n} is out sick this week; hold the review.",
    "Sync with {n} about the schema change.",
    "{n} likes charts with the y axis starting at zero.",
    "Loop in {n} on pricing questions.",
]
PERSON_TEMPLATES_TITLE = [
    "{n} signs off the audit numbers.",
    "Send the compliance summary to {n}.",
    "{n} wants the cohort chart by week.",
    "Meeting with {n} moved to 3 pm.",
    "Per {n}, refunds are excluded from net revenue.",
    "Appointment with {n} on Tuesday.",
]
PERSON_TEMPLATES_EMAIL = [
    "Send the export to {n} every Friday.",
    "Contact for the vendor feed: {n}",
    "Share the dashboard link with {n}.",
    "Reply-to for the report is {n}.",
]
RECORD_TEMPLATES_PHONE = [
    "Call {n} if the load fails.",
    "Their number is {n}.",
    "SMS {n} when the job is done.",
]
RECORD_TEMPLATES_ID = [
    "Employee {n} asked to hide salary columns.",
    "Row for {n} has the wrong hire date.",
    "Record {n} is a test account, ignore it.",
    "Exclude {n} from the headcount chart.",
]
NOTE_KEYS_PERSON = [
    "contact",
    "preference",
    "reminder",
    "people.note",
    "user_context",
    "stakeholder",
    "report_owner",
    "review",
    "meeting",
    "followup",
]

# ---------------------------------------------------------------------------------------
# Benign table notes, with words that are also parts of names.

TABLES = [
    "orders",
    "customers",
    "order_items",
    "invoices",
    "payments",
    "shipments",
    "stores",
    "products",
    "campaigns",
    "subscriptions",
    "events",
    "regions",
    "inventory",
    "returns",
]
COLUMNS = [
    "region",
    "status",
    "amount_cents",
    "created_at",
    "store_id",
    "sku",
    "channel",
    "segment",
    "is_archived",
    "country_code",
    "lane",
    "tier",
    "currency",
    "discount_pct",
    "updated_at",
]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

BENIGN_TEMPLATES = [
    "Will the report run on {day} if the {table} load is late? Check the scheduler first.",
    "Will {table} be refreshed before the board meeting?",
    "May {year} revenue in {table} excludes refunds.",
    "{month} {year} numbers are in the {table} table, column {col}.",
    "The May campaign rows have {col} = 'spring_promo'.",
    "Rose Garden store (store_id 114) closed in {month} {year}.",
    "Rose gold variants share the same sku prefix in {table}.",
    "Hope this helps: use {table}.{col} for the split.",
    "Hope is a segment name in {table}: the 'Hope' tier is the lowest.",
    "Jordan region was merged into EMEA in {year}.",
    "Sales in Jordan and Egypt are reported in USD.",
    "China region totals include Hong Kong since {year}.",
    "Paris office headcount lives in the {table} table.",
    "Paris and Lyon stores use the EUR {col}.",
    "Grant read access on {table} to the analysts role.",
    "Grant totals are stored per fiscal year in {table}.",
    "Summer promo codes are in {table}.{col}.",
    "Summer Sale orders have channel = 'web'.",
    "Bill amounts in {table} are in cents, divide by 100.",
    "Bill to and ship to addresses differ for B2B orders.",
    "Mark archived rows with {col} = true instead of deleting them.",
    "Mark the {table} load as done only after the row count check.",
    "Frank feedback comments are in the free-text column of {table}.",
    "Lane column stores the shipping lane code, e.g. 'EU-2'.",
    "Lane 4 in the warehouse maps to store_id 22.",
    "Young customers segment means age under 25 in {table}.",
    "Young adults and seniors are separate values of {col}.",
    "King size products use the sku prefix KS in {table}.",
    "King County stores report weekly.",
    "The {col} column is null for orders before {month} {year}.",
    "Use the Finance view, not the raw {table} table, for totals.",
    "Rows with {col} = 'test' are internal and should be skipped.",
    "The North region includes the Dakotas; South includes Texas.",
    "Close of books is the third working day of the month.",
    "Revenue on {day}s is low because stores close early.",
    "Returns over 90 days are flagged in {table}.{col}.",
    "The {table} table is partitioned by {col}.",
    "Join {table} to stores on store_id, never on store name.",
    "Price changes in {month} were applied retroactively.",
    "Currency for China rows is CNY; convert with the daily rate.",
    "August {year} has a gap: the loader was down for two days.",
    "April and June cohorts are small, don't chart them separately.",
    "Grant and subsidy income is excluded from net revenue.",
    "Will call orders (pickup in store) have channel 'will_call'.",
    "Mark down prices are in {table}.markdown_price.",
    "Memorial Day and Labor Day are holidays in the US calendar table.",
    "Chase payments and Amex payments settle on different days.",
    "Jersey and Guernsey stores are grouped under UK.",
    "Victoria station store is store_id 7.",
    "Sydney and Melbourne stores report in AUD.",
    "Rows from the Georgia warehouse use US state GA, not the country.",
    "Dallas and Austin stores were merged in {year}.",
    "Columbus Day is not a company holiday.",
    "Prime members get free shipping; see {table}.{col}.",
    "Frank's Hardware is a supplier name in the products table, not a person.",
    "Faith-based charities get the nonprofit discount tier.",
    "The Grace period for invoices is 30 days.",
    "Art supplies category id is 40.",
    "Page views are in the events table, not in {table}.",
    "Case counts in {table} include reopened tickets.",
    "Miles driven per route is in the shipments table.",
    "Golden Week sales in Japan spike in early May.",
    "Dawn deliveries (before 6 am) have {col} = 'early'.",
    "Summer hours: the warehouse closes at 3 pm on Fridays.",
    "Hope Street store moved to store_id 130 in {year}.",
]
BENIGN_TEMPLATES += [
    "Will the {table} export include {col}? Only if the flag is on.",
    "May and June numbers in {table} are provisional until the audit.",
    "Rose and Lily are product line names in the {table} table (col {col}).",
    "Hope Valley warehouse ships the {table} backlog on {day}s.",
    "Jordan Valley farm supplies the organic products; see {table}.",
    "China Town store and the Paris street store share store_id 88 by mistake.",
    "Grant access to {table} only after the privacy review.",
    "Summer and Winter collections have separate season codes in {col}.",
    "Bill of materials lives in the bom table, keyed by sku.",
    "Mark the {col} column as deprecated in the data dictionary.",
    "Frank answers only, no hedging: the support macro style for {table} tickets.",
    "Lane assignments are recalculated every {day}.",
    "Young Professionals is a marketing segment in {table}.{col}.",
    "King's Cross store reports through the London region.",
    "Paris, Texas is a US store; don't map it to France.",
    "Jordan 1 sneakers are a top seller in {table} for {month}.",
    "The Grant Street office closes on {day}s.",
    "Summer Street and King Street stores merged in {year}.",
    "Chase the late {table} feed on {day} mornings.",
    "Bill run happens on the first {day} of the month.",
    "Page {col} by 500 rows when exporting {table}.",
    "Victoria region covers Melbourne stores since {year}.",
    "Rose Bowl weekend traffic inflates {table} counts in January.",
    "Will the airport store (store_id 61) reopen in {month}?",
    "Hope you find the {col} mapping in the wiki.",
]
BENIGN_SUFFIXES = [
    "",
    "",
    " Checked {month} {year}.",
    " (see {table})",
    " Confirmed on {day}.",
    " Source: data dictionary.",
]
BENIGN_FILL_YEARS = ["2022", "2023", "2024", "2025"]

# ---------------------------------------------------------------------------------------
# Benign technical notes.

TECH_TEMPLATES = [
    "Apache Kafka consumer lag alert fires above {num} messages.",
    "The Kafka topic for {table} events is {table}.v2.",
    "Django migrations must run before the Celery workers start.",
    "Use Django's select_related on {table} to avoid N+1 queries.",
    "Jackson fails on unknown properties; set FAIL_ON_UNKNOWN_PROPERTIES to false.",
    "The Java service uses Jackson for JSON and Spring Boot {num}.",
    "Ruby on Rails app still writes to {table}; don't drop the column.",
    "Rails console is the quickest way to fix a bad row.",
    "Julia is used for the pricing model; arrays are 1-indexed.",
    "The forecasting notebook runs on Julia {ver} with DataFrames.jl.",
    "Pandas read_csv needs dtype=str for the zip codes.",
    "Load {table} with Pandas in chunks of {num} rows.",
    "Flask admin panel is only reachable on the VPN.",
    "Spring Boot actuator health endpoint is /actuator/health.",
    "Hadoop jobs were migrated to Spark in {year}.",
    "Jenkins builds the ETL image nightly at 2 am.",
    "Jenkins pipeline fails if the {table} row count drops by half.",
    "Ansible playbook deploys the exporter to all hosts.",
    "Grafana dashboard 'Orders' shows p95 latency for {table}.",
    "Kubernetes cronjob {table}-sync runs every {num} minutes.",
    "Deploy freeze every {day} after 4 pm.",
    "Releases go out on {day} mornings, never on Fridays.",
    "{month} {year}: upgraded Postgres to 16.",
    "May {year}: the Redis cluster was resized.",
    "Will the report run? Only if the Airflow DAG succeeded.",
    "Hope this helps: restart the Celery beat after changing the schedule.",
    "Paris office VPN uses a different gateway.",
    "China region cloud accounts need ICP filing before launch.",
    "Terraform state for {table} infra is in the shared S3 bucket.",
    "Elasticsearch index {table} is rebuilt nightly.",
    "Redis keys for sessions expire after {num} seconds.",
    "Snowflake warehouse size for dbt runs is MEDIUM.",
    "Airflow DAG {table}_daily retries 3 times.",
    "Sentry alerts for the API go to the #data-alerts channel.",
    "Prometheus scrapes the exporter on port 9{num}.",
    "Use the Jupyter kernel with Python {ver} for the churn notebook.",
    "Docker image tag must match the git sha.",
    "Nginx buffers large responses; raise proxy_buffer_size for exports.",
    "Celery tasks that touch {table} must be idempotent.",
    "PostgreSQL partitioning on {table} is by month.",
    "Looker explores read from the reporting replica.",
    "Tableau extracts refresh at 5 am UTC.",
    "Hive tables were replaced by Iceberg in {year}.",
    "Cassandra is only used for the clickstream archive.",
    "Hugo builds the docs site; run hugo server locally.",
    "Claude and Copilot suggestions must be reviewed before merge.",
    "Jasmine tests for the frontend run in Karma.",
    "Travis was replaced by GitHub Actions.",
    "Ruby 3.3 is required for the billing service.",
    "Crystal reports export is deprecated.",
    "The Jackson Databind CVE fix is in version 2.15.",
    "Apache Spark executors need 8 GB for the {table} join.",
    "Presto queries on {table} time out after {num} seconds.",
    "Flink checkpoint interval is {num} seconds.",
    "Helm chart values for {table}-api live in infra/charts.",
    "Vault issues database credentials valid for one hour.",
    "Consul health checks ping /healthz.",
    "Logstash pipeline drops debug logs.",
    "Kibana saved search for {table} errors is shared.",
    "Gradle build needs JDK 21.",
    "Maven central mirror is configured in settings.xml.",
    "npm ci, not npm install, in the pipeline.",
    "The Sphinx docs need the autodoc extension.",
    "Alexa skill integration was retired in {year}.",
    "Selenium tests are flaky on {day}s because of the backup window.",
    "Mocha and Chai run the node tests.",
    "Kotlin coroutines are used in the Android app sync.",
    "Swift package for the iOS client pins Alamofire 5.",
    "Scala jobs on Databricks read {table} from Delta.",
    "Rust service parses {table} events at {num} per second.",
    "Haskell prototype was dropped.",
    "Erlang nodes in the chat cluster need the same cookie.",
    "Elixir Phoenix app handles the websocket fan-out.",
    "Pascal-case names are required for C# public methods.",
    "Ada is used only in the legacy firmware repo.",
    "dbt model {table}_daily depends on stg_{table}.",
    "Fivetran syncs {table} from Salesforce every hour.",
    "Stripe webhooks retry for 3 days.",
    "Twilio SMS alerts are capped at {num} a day.",
    "Okta groups map to the analyst and admin roles.",
    "Zendesk tickets are loaded into {table} nightly.",
    "Jira project DATA tracks pipeline bugs.",
    "Confluence page 'Runbook' explains the failover.",
    "Heroku review apps were replaced by preview environments.",
    "Vercel preview builds use the staging API.",
    "Cloudflare caches the export endpoint for 60 seconds.",
    "MongoDB collection {table} has a TTL index on {col}.",
    "Oracle GoldenGate replicates the ERP tables.",
    "SAP HANA extract runs at midnight CET.",
    "Matplotlib charts in the report use the Agg backend.",
    "Seaborn heatmap of {table} correlations is in the notebook.",
    "NumPy and SciPy versions are pinned in requirements.txt.",
    "Keras model for churn was retired; use the XGBoost one.",
    "PyTorch {ver} wheels need CUDA 12 on the GPU runners.",
    "Hadoop HDFS paths under /data/{table} are read-only now.",
    "Grafana Loki keeps logs for {num} days.",
    "Jaeger traces for the API are sampled at 1%.",
    "Argo CD syncs the {table} service from the main branch.",
    "Istio sidecar adds 5 ms to each call.",
    "Traefik routes /api to the Django backend.",
    "Gunicorn runs 4 workers per pod.",
    "Uvicorn handles the websocket endpoint.",
    "Bokeh and Plotly are both allowed for charts.",
    "Kubernetes namespaces: data, web, jobs.",
    "Ansible vault password is in the secrets manager, not in the repo.",
    "Jenkins X was evaluated and rejected.",
    "Spring Security config requires CSRF tokens for the admin app.",
    "Flask-Login sessions last 12 hours.",
    "Pandas DataFrame.merge on {col} duplicates rows when keys repeat.",
    "Django REST framework pagination size is {num}.",
    "Celery Flower dashboard is on port 5555.",
    "Rails Active Record callbacks update {table}.{col}.",
    "The {col} column in {table} is indexed with a BRIN index.",
    "Julia Pkg registry mirror is internal.",
    "Apache Airflow 2 scheduler needs the metadata DB on Postgres.",
    "Apache Superset charts read from the analytics schema.",
    "Metabase questions on {table} are cached for one hour.",
]
TECH_TEMPLATES += [
    "Kafka Connect sinks {table} into the warehouse every {num} seconds.",
    "Jenkins agent labels: linux, docker, gpu.",
    "Grafana alert for {table} freshness pages after {num} minutes.",
    "Ruby gems are vendored for the {table} importer.",
    "Julia threads must be set with JULIA_NUM_THREADS={num}.",
    "Kubernetes HPA scales the {table} API between 2 and {num} pods.",
    "Spring Boot {ver} upgrade broke the Jackson date format.",
    "Ansible inventory groups: db, web, workers.",
    "Hadoop cluster decommissioned in {month} {year}.",
    "Flask app factory reads config from the environment.",
    "Django admin for {table} is read-only for analysts.",
    "Pandas {ver} changed the default of observed in groupby.",
]
TECH_SUFFIXES = [
    "",
    "",
    " Verified {month} {year}.",
    " See the runbook.",
    " (infra ticket {num})",
    " Reviewed on {day}.",
]
TECH_VERSIONS = ["1.10", "3.11", "3.12", "2.2", "1.9"]

# ---------------------------------------------------------------------------------------


def strip_accents(text: str) -> str:
    folded = text.translate(
        str.maketrans(
            {
                "ø": "o",
                "Ø": "O",
                "ł": "l",
                "Ł": "L",
                "đ": "d",
                "Đ": "D",
                "ß": "ss",
                "Þ": "Th",
                "þ": "th",
                "ı": "i",
            }
        )
    )
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def split_pool(rng: random.Random, names: list[str]) -> tuple[list[str], list[str]]:
    """Two thirds of a list for the table, one third for people outside the table."""
    shuffled = names[:]
    rng.shuffle(shuffled)
    cut = max(1, (len(shuffled) * 2) // 3)
    return shuffled[:cut], shuffled[cut:] or shuffled[:1]


def make_person(
    rng: random.Random, culture: str, spec: dict, firsts: list[str], lasts: list[str]
) -> dict:
    first = rng.choice(firsts)
    last = rng.choice(lasts).replace("_", " ") if lasts else ""
    middle = rng.choice(spec["middle"]) if spec.get("middle") and rng.random() < 0.7 else ""
    if not last:
        full = first  # a single-name person
    elif spec.get("family_first"):
        full = " ".join(p for p in (last, middle, first) if p)
    else:
        full = f"{first} {last}"
    female = rng.random() < 0.5
    return {
        "first_name": first,
        "last_name": last,
        "full_name": full,
        "culture": culture,
        "title": rng.choice(TITLES_F if female else TITLES_M),
    }


def email_local(person: dict, rng: random.Random) -> str:
    first = strip_accents(person["first_name"]).lower().replace("'", "")
    last = strip_accents(person["last_name"]).lower().replace(" ", "").replace("'", "")
    if not last:
        return first.replace("-", "")
    style = rng.randrange(4)
    if style == 0:
        return f"{first}.{last}".replace("-", "")
    if style == 1:
        return f"{first[0]}.{last}".replace("-", "")
    if style == 2:
        return f"{first}_{last}".replace("-", "")
    return f"{first[0]}{last}".replace("-", "")


def make_phone(rng: random.Random, cc: str) -> tuple[str, str]:
    """An E.164 number and the same number written another way."""
    if cc == "33":
        nsn = "6" + "".join(str(rng.randrange(10)) for _ in range(8))
        pairs = " ".join(nsn[i : i + 2] for i in range(1, 9, 2))
        return f"+33{nsn}", rng.choice([f"0{nsn[0]} {pairs}", f"+33 {nsn[0]} {pairs}"])
    nsn = str(rng.randrange(2, 10)) + "".join(str(rng.randrange(10)) for _ in range(9))
    e164 = f"+{cc}{nsn}"
    forms = [
        f"({nsn[:3]}) {nsn[3:6]}-{nsn[6:]}",
        f"{nsn[:3]}.{nsn[3:6]}.{nsn[6:]}",
        f"0{nsn[:3]} {nsn[3:6]} {nsn[6:]}",
        f"+{cc} {nsn[:3]} {nsn[3:6]} {nsn[6:]}",
        f"00{cc}-{nsn[:3]}-{nsn[3:6]}-{nsn[6:]}",
    ]
    return e164, rng.choice(forms)


def name_forms(rng: random.Random, person: dict) -> list[tuple[str, str]]:
    """(form, rendered name) pairs for a person, in the forms notes use."""
    full = person["full_name"]
    first = person["first_name"]
    last = person["last_name"]
    forms = [("full", full)]
    if strip_accents(full) != full:
        forms.append(("accents_dropped", strip_accents(full)))
    forms.append(("lowercase", full.lower()))
    if last:
        forms.append(("title_surname", f"{person['title']} {last}"))
        forms.append(("title_surname_lower", f"{person['title'].lower()} {last.lower()}"))
    forms.append(("first_only", first))
    if rng.random() < 0.5:
        forms.append(("first_only_lower", first.lower()))
    return forms


def render(template: str, name: str, rng: random.Random) -> str:
    text = template.replace("{n}", name)
    if text[0].islower() and rng.random() < 0.5:
        text = text[0].upper() + text[1:]
    return text


def fill(template: str, rng: random.Random) -> str:
    return (
        template.replace("{table}", rng.choice(TABLES))
        .replace("{col}", rng.choice(COLUMNS))
        .replace("{month}", rng.choice(MONTHS))
        .replace("{day}", rng.choice(DAYS))
        .replace("{year}", rng.choice(BENIGN_FILL_YEARS))
        .replace("{num}", str(rng.choice([5, 30, 60, 100, 500, 1000, 5000, 10000])))
        .replace("{ver}", rng.choice(TECH_VERSIONS))
    )


def person_note(rng: random.Random, person: dict, form: str, name: str, label: str) -> dict:
    if form in ("title_surname", "title_surname_lower"):
        template = rng.choice(PERSON_TEMPLATES_TITLE + PERSON_TEMPLATES_FULL)
    elif form in ("first_only", "first_only_lower"):
        template = rng.choice(PERSON_TEMPLATES_FIRST)
    else:
        template = rng.choice(PERSON_TEMPLATES_FULL + PERSON_TEMPLATES_TITLE)
    if form.endswith("lower") or form == "lowercase":
        value = template.replace("{n}", name).lower()
    else:
        value = render(template, name, rng)
    return {"key": rng.choice(NOTE_KEYS_PERSON), "value": value, "label": label, "form": form}


def build() -> dict:
    rng = random.Random(SEED)
    table_pools: dict[str, tuple[list[str], list[str]]] = {}
    other_pools: dict[str, tuple[list[str], list[str]]] = {}
    for culture, spec in CULTURES.items():
        tf, of = split_pool(rng, spec["first"])
        if spec["last"]:
            tl, ol = split_pool(rng, spec["last"])
        else:
            tl, ol = [], []
        table_pools[culture] = (tf, tl)
        other_pools[culture] = (of, ol)

    # The table.
    people: list[dict] = []
    seen: set[str] = set()
    cultures = list(CULTURES)
    attempt = 0
    while len(people) < TABLE_SIZE:
        culture = cultures[attempt % len(cultures)]
        attempt += 1
        firsts, lasts = table_pools[culture]
        person = make_person(rng, culture, CULTURES[culture], firsts, lasts)
        if person["full_name"] in seen:
            continue
        seen.add(person["full_name"])
        person["id"] = f"EMP-{len(people) + 1:05d}"
        person["email"] = f"{email_local(person, rng)}{len(people) + 1}@{TABLE_DOMAIN}"
        person["phone"], person["phone_other_format"] = make_phone(rng, CULTURES[culture]["cc"])
        people.append(person)

    notes: list[dict] = []

    # names_record: every person at least once, in varied forms.
    for person in people:
        forms = name_forms(rng, person)
        form, name = rng.choice(forms)
        note = person_note(rng, person, form, name, "names_record")
        note["person_id"] = person["id"]
        notes.append(note)
        kind = rng.randrange(3)
        if kind == 0:
            value = rng.choice(PERSON_TEMPLATES_EMAIL).replace("{n}", person["email"])
            form = "email"
        elif kind == 1:
            value = rng.choice(RECORD_TEMPLATES_PHONE).replace("{n}", person["phone_other_format"])
            form = "phone_other_format"
        else:
            value = rng.choice(RECORD_TEMPLATES_ID).replace("{n}", person["id"])
            form = "employee_id"
        notes.append(
            {
                "key": rng.choice(NOTE_KEYS_PERSON),
                "value": value,
                "label": "names_record",
                "form": form,
                "person_id": person["id"],
            }
        )

    # names_person_other: people who are not in the table.
    table_names = {p["full_name"] for p in people}
    others: list[dict] = []
    other_names: set[str] = set()
    while len(others) < 220:
        culture = rng.choice(cultures)
        firsts, lasts = other_pools[culture]
        person = make_person(rng, culture, CULTURES[culture], firsts, lasts)
        if person["full_name"] in table_names or person["full_name"] in other_names:
            continue
        other_names.add(person["full_name"])
        others.append(person)
    for person in others:
        forms = name_forms(rng, person)
        for form, name in rng.sample(forms, k=min(2, len(forms))):
            notes.append(person_note(rng, person, form, name, "names_person_other"))
        if person["last_name"] and rng.random() < 0.25:
            local = email_local(person, rng)
            value = rng.choice(PERSON_TEMPLATES_EMAIL).replace(
                "{n}", f"{local}@{rng.choice(OTHER_DOMAINS)}"
            )
            notes.append(
                {
                    "key": rng.choice(NOTE_KEYS_PERSON),
                    "value": value,
                    "label": "names_person_other",
                    "form": "email",
                }
            )

    # benign table notes: every template at least four times, with different fillers.
    benign: list[str] = []
    for template in BENIGN_TEMPLATES:
        for _ in range(5):
            benign.append(fill(template + rng.choice(BENIGN_SUFFIXES), rng))
    for value in sorted(set(benign), key=benign.index):
        notes.append(
            {
                "key": rng.choice(
                    ["table_note", "orders.hint", "column_meaning", "data_caveat", "schema"]
                ),
                "value": value,
                "label": "benign",
                "form": "table_note",
            }
        )

    tech: list[str] = []
    for template in TECH_TEMPLATES:
        for _ in range(3):
            tech.append(fill(template + rng.choice(TECH_SUFFIXES), rng))
    for value in sorted(set(tech), key=tech.index):
        notes.append(
            {
                "key": rng.choice(["infra", "tooling", "runbook", "deploy", "stack"]),
                "value": value,
                "label": "benign_tech",
                "form": "tech_note",
            }
        )

    for note in notes:
        size = len(note["key"].encode()) + len(note["value"].encode())
        assert size <= 1024, note

    return {"seed": SEED, "people": people, "notes": notes}


def main() -> None:
    corpus = build()
    OUT.write_text(
        json.dumps(corpus, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    counts: dict[str, int] = {}
    for note in corpus["notes"]:
        counts[note["label"]] = counts.get(note["label"], 0) + 1
    print(f"wrote {OUT}: {len(corpus['people'])} people, notes {counts}")


if __name__ == "__main__":
    main()
