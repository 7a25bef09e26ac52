"""Does a note look like it names a specific person? (R-SAVE-3b: such a note is held.)

``find_person_mentions(text)`` returns the spans that look like a person's name. It is a
gazetteer with context rules, not a statistical model: it works offline, answers in about
0.1 ms for a typical note (about 1 ms for a 1 KB note dense with names), and every
decision can be traced to a rule below. Measured on tests/data/people_corpus.json by
tests/memories/test_people_detector.py (held rates are printed there).

Why not a model: spaCy's English pipelines are not on PyPI (only an unofficial mirror,
which held 51 % of the notes naming people and ~20 % of benign notes, 150 MB, 12 s to
load), and the ``names-dataset`` package needs 1.9 GB and 24 s to load and knows "Django"
and "The" as names.

Where the words come from (loaded once, lazily, on the first call; thread-safe; ~35 MB):

* **First names and surnames**: the person-name lists that ship inside the ``Faker``
  package (MIT): all its locales written in Latin script (about 20,000 first names and
  25,000 surnames: Spanish, Portuguese, Nordic, Slavic, Turkish, Yoruba, Igbo, Hausa, Twi,
  Swahili, Zulu, Indonesian, Indian English ...), plus its Cyrillic lists transliterated,
  plus a short list in this file of romanised Chinese, Japanese, Korean, Vietnamese,
  Arabic, Persian, Indian and West African names that Faker only has in their own scripts
  or not at all. Korean given names written as two syllables ("Min-jun", "Seoyeon") are
  recognised from a list of syllables.
* **What is an English word**: the ~28,000 most frequent English words of the ``wordfreq``
  package (its small list, read from its data file). A name that is also one of the
  10,000 most frequent words ("Will", "May", "Grant", "Summer", "King", "Long") is
  *ambiguous*: it needs more evidence than a capital letter. Names frequent only *because*
  they are names ("John", "David", "Maria") are listed here and stay plain names. A name
  that only one language's list has and that is also a less frequent English word
  ("Handler", "Decimal") is *word-like*: it too needs more evidence.
* **Technology, companies and places** that are also names or surnames (Kafka, Jackson,
  Julia, Ruby, Jenkins, Django, Hugo, Cassandra, Claude, Paris, Sydney, Morgan Stanley
  ...): listed here. They are never taken for a person unless the text says so plainly
  ("ask Julia about", "Ms. Ruby", "Julia's birthday", "Julia Roberts").

The rules, on words written as names (capitalised, or lower case where a cue says so):

1. A title and a name: "Ms. Lopez", "dr. okafor", "Prof. van der Berg".
2. Two or more capitalised name words in a row, one of them a known first name or
   surname: "Chidi Okonkwo", "Grant Holloway", "Liu Yuting"; or an ambiguous first name
   and a word no list or dictionary knows ("Mark Whitfield").
3. A known first name or surname, capitalised, that is not ambiguous, word-like, tech or
   a place: "Priya prefers CSV", "send it to Nguyen".
4. Any name word (ambiguous, or one no list knows) with a cue that it is a person: before
   it "ask", "tell", "ping", "cc", "thanks", "email", "meeting with", "my manager", "our
   CFO", "according to"; after it "said", "prefers", "wants", "is on leave", "from sales",
   or a possessive with "birthday", "wife", "phone" ... Lower-case names need such a cue,
   or to come as a first name and surname together ("chidi okonkwo").
5. An email address whose local part holds a name ("ana.lopez@", "j.okafor@", "priya@"),
   but not role addresses ("support@", "noreply@", "data-team@", "editor@").

Words glued to code (``pandas.DataFrame``, ``user_name``, ``'Hope'`` in quotes), all-caps
words and CamelCase words (other than Mc/Mac/O'/De... names) are never names.

Known limits: a first name that no list knows, with no cue ("Lunch with Dariush"), is
missed; so are phone numbers and ids (the table index of R-SAVE-3 sees those). German
text, where every noun is capitalised, can be taken for names.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import threading
import unicodedata
from dataclasses import dataclass

from memories.refusals.phrases import EMAIL_RE, strip_accents

__all__ = ["PersonMention", "find_person_mentions", "load"]


@dataclass(frozen=True)
class PersonMention:
    text: str  # the span as written
    start: int
    end: int


# ---------------------------------------------------------------------------------------
# Word lists written here. Keys are lower case, accents stripped.


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Names that are among the most frequent English words only because they are names: they
# stay plain names (rule 3 applies to them).
_COMMON_NAMES = _words("""
john david james michael george paul peter william robert thomas chris mike richard joe mary
charles henry harry scott steve ben sam tony alex daniel jim adam andrew kevin matt edward
joseph dan tim stephen eric sarah simon elizabeth donald jason alan jeff luke dave jimmy kelly
andy charlie jane anthony arthur alexander francis gary roger ross allen clark anna gordon
matthew patrick phil wayne walter ann johnny josh kate maria billy ian justin rick ali jon
jonathan lawrence oscar sean graham lisa larry philip barry cameron jerry ted danny roy
stewart albert carl laura mitchell nelson susan terry aaron emma greg jacob leo margaret mario
bobby christopher oliver perry ron douglas fred jose ken amy barbara helen jennifer marie
samuel stanley craig victor antonio jake jamie jessica keith benjamin blake michelle neil
tommy harvey jeremy morris rachel eddie emily kyle nancy norman vincent nathan stuart juan
ashley catherine dennis ralph carlos colin julie karen lucas marcus todd lucy spencer linda
ellen hannah owen ruth wallace jesse nicholas harold angela bernard diana doug duncan derek
hugh joan leonard malcolm amanda arnold bradley brandon caroline karl louise alfred julian
luis nicole bryan claire lauren martha raymond janet katie monica rebecca sara adrian
frederick pierre annie isaac liam noah vladimir dylan logan hudson lloyd marc russell moses
abraham joel casey pete ellis emma olivia sophia isabella mia ava chloe zoe priya
williams jones davis wilson miller lewis johnson smith brown taylor anderson thompson moore
jackson white harris martin garcia martinez robinson clark rodriguez lee walker hall allen
young king wright lopez hill scott green adams baker gonzalez nelson carter mitchell perez
roberts turner phillips campbell parker evans edwards collins stewart sanchez morris rogers
reed cook morgan bell murphy bailey rivera cooper richardson cox howard ward torres peterson
gray ramirez james watson brooks kelly sanders price bennett wood barnes ross henderson
coleman jenkins perry powell long patterson hughes flores washington butler simmons foster
gonzales bryant alexander russell griffin diaz hayes kim chen wang li zhang liu singh kumar
patel khan nguyen
""") - _words(
    "will may mark bill grant hope rose summer frank lane young king long white "
    "brown green wood hill bell price cook reed hall gray ward rice"
)

# Common words that are names too: ambiguous even when wordfreq does not rank them high
# (the frequent ones are found through wordfreq).
_AMBIGUOUS_EXTRA = _words("""
will may mark bill grant hope rose summer frank lane young king jordan china paris jack
chase faith grace joy honor honour mercy charity patience prudence liberty justice trinity
destiny harmony melody serenity felicity unity verity dawn sky storm river ocean rain autumn
winter spring april june august art guy drew rob pat sue don nick chip chuck bud buck hank
dale glen cliff ray rod gene sterling penny cash price bell page case ford major general
prince duke earl baron marshal dean bishop pastor judge deacon mayor sandy rusty dusty misty
sunny stormy ivy holly lily daisy violet amber ruby crystal jade pearl opal ginger candy
honey coral hazel olive jasmine iris poppy fern willow rosemary heather basil sage angel
max min val sol sonny chance miles wade pierce miller smith baker turner carter hunter mason
cooper walker fisher porter butler weaver archer tanner palmer harper parker taylor sawyer
shepherd fuller stone wood hill field hall park brook brooks banks rivers waters woods
fields street lake glenn forest heath marsh moss rock cliff ridge grove vale
black white green brown gray grey gold silver
""")

# Software, services, companies and products that are also first names, surnames or
# words of a name. Never a person on their own (see the module docstring).
_TECH = _words("""
kafka apache django jackson ruby rails julia pandas flask spring boot hadoop jenkins ansible
grafana kubernetes airflow celery redis postgres postgresql mysql mongo mongodb oracle sap
spark flink storm samza beam kylin druid pinot superset metabase redash looker tableau
sisense domo qlik alteryx dbt fivetran stitch segment amplitude mixpanel heap pendo gainsight
marketo pardot eloqua salesforce hubspot zendesk stripe twilio okta auth0 slack zoom dropbox
workday snowflake databricks heroku netlify vercel cloudflare akamai fastly sentry rollbar
datadog prometheus loki tempo mimir thanos cortex jaeger zipkin kibana logstash fluentd beats
nginx caddy traefik gunicorn uvicorn bokeh plotly altair vega seaborn matplotlib numpy scipy
sklearn keras theano caffe torch pytorch tensorflow jax rust go golang elixir erlang haskell
scala kotlin swift dart perl lua nim zig crystal ada pascal delphi fortran cobol clojure
jupyter colab sage maple mathematica octave stata hive pig oozie sqoop flume zookeeper
ambari hue tez impala kudu presto trino iceberg hudi delta terraform pulumi vault consul
nomad packer vagrant docker podman helm argo istio envoy linkerd rancher openshift tekton
spinnaker harness travis circle drone bamboo hudson sonar sonarqube gradle maven ivy ant
bazel buck pants jasmine karma mocha chai jest enzyme cypress selenium appium playwright
puppeteer webpack babel vite rollup parcel esbuild react angular vue svelte ember backbone
jquery node deno bun express nest next nuxt gatsby hugo jekyll sphinx mkdocs docusaurus
hexo meta alexa siri cortana watson jarvis ollama llama mistral falcon gemma gemini claude bard
copilot devin cody cursor tabnine phi qwen grok sonnet haiku opus gpt chatgpt openai
anthropic athena aurora neptune polly lex kendra macie cosmos vertex atlas apollo phoenix
hermes luigi dagster prefect kedro mlflow kubeflow ray dask modin polars arrow parquet avro
orc protobuf thrift grpc graphql kotlin android ios macos linux ubuntu debian fedora centos
redhat alpine arch gentoo windows azure aws gcp google amazon microsoft apple netflix
spotify uber lyft airbnb expedia marriott hilton hyatt disney warner paramount pixar boeing
airbus siemens bosch philips schneider michelin goodyear pirelli ferrari porsche mercedes
benz bmw audi volkswagen toyota honda nissan mazda subaru suzuki mitsubishi hyundai kia
samsung sony nintendo toshiba hitachi panasonic canon nikon fujitsu yamaha kawasaki lenovo
huawei xiaomi alibaba tencent baidu bytedance tiktok wechat weibo dell cisco intel nvidia
adobe shopify atlassian jira confluence trello asana notion figma miro canva walmart costco
kroger target tesco sainsbury aldi lidl carrefour ikea lego maersk volvo ericsson nokia
wipro infosys tata mahindra reliance adani deloitte accenture gartner nielsen bloomberg
reuters goldman sachs morgan stanley merrill lynch schwab fidelity vanguard blackrock
barclays lloyds santander hsbc citi wells fargo kellogg heinz nestle danone unilever pepsi
coca cola starbucks mcdonald mcdonalds wendy wendys dunkin chipotle domino dominos dyson
kohler hershey tyson campbell johnson elasticsearch elastic opensearch solr lucene kinesis
lambda fargate redshift bigquery dataflow spanner bigtable firestore firebase synapse
purview supabase neon planetscale cockroach cockroachdb clickhouse duckdb sqlite mariadb
cassandra scylla couchbase couchdb dynamo dynamodb neo4j memcached rabbitmq activemq
zeromq nats pulsar kinesis splunk newrelic pagerduty opsgenie grafana statuspage jenkinsfile
github gitlab bitbucket gitea sourcetree vscode vim emacs intellij pycharm eclipse xcode
postman insomnia swagger openapi wireshark tailscale wireguard openvpn zscaler crowdstrike
paloalto fortinet okta ping duo yubikey lastpass bitwarden onepassword keepass
""")

# Multi-word tech, company and place names (checked as whole phrases before the rules).
_TECH_PHRASES = [
    "spring boot",
    "spring security",
    "spring cloud",
    "apache kafka",
    "apache spark",
    "ruby on rails",
    "jackson databind",
    "goldman sachs",
    "morgan stanley",
    "wells fargo",
    "jenkins x",
    "grafana loki",
    "harley davidson",
    "rolls royce",
    "mercedes benz",
    "johnson johnson",
    "procter gamble",
    "ernst young",
    "hewlett packard",
    "dow jones",
    "charles schwab",
    "merrill lynch",
    "lloyds bank",
    "marks spencer",
    "tim hortons",
    "ben jerry",
    "walt disney",
    "van cleef",
    "louis vuitton",
    "calvin klein",
    "ralph lauren",
    "tommy hilfiger",
    "hugo boss",
    "estee lauder",
    "jack daniels",
    "ronald mcdonald",
    "san jose",
    "san diego",
    "san francisco",
    "san antonio",
    "santa clara",
    "santa monica",
    "santa fe",
    "st louis",
    "saint louis",
    "st paul",
    "saint paul",
    "los angeles",
    "las vegas",
    "fort worth",
    "fort collins",
    "salt lake",
    "new york",
    "new jersey",
    "new orleans",
    "new mexico",
    "hong kong",
    "kuala lumpur",
    "rio de janeiro",
    "buenos aires",
    "sao paulo",
    "costa rica",
    "puerto rico",
    "el salvador",
    "sri lanka",
    "saudi arabia",
    "south africa",
    "new zealand",
    "north carolina",
    "south carolina",
    "north dakota",
    "south dakota",
    "west virginia",
    "rhode island",
    "cape town",
    "mount vernon",
    "palo alto",
    "menlo park",
    "mountain view",
    "beverly hills",
    "king county",
    "kings cross",
    "golden week",
    "rose bowl",
    "rose gold",
    "memorial day",
    "labor day",
    "columbus day",
    "boxing day",
    "christmas day",
    "jupyter notebook",
    "julia lang",
    "visual studio",
    "google sheets",
    "power bi",
    "amazon aurora",
    "amazon athena",
    "aws lambda",
    "azure devops",
    "github actions",
]

_PLACES = _words("""
paris london berlin madrid rome milan munich hamburg vienna zurich geneva amsterdam
brussels dublin lisbon porto barcelona valencia seville lyon marseille nice prague warsaw
krakow budapest bucharest sofia athens istanbul ankara moscow kyiv kiev stockholm oslo
copenhagen helsinki reykjavik tallinn riga vilnius china india japan korea vietnam
thailand indonesia malaysia singapore philippines taiwan australia sydney melbourne
brisbane perth adelaide darwin canberra auckland wellington christchurch canada toronto
vancouver montreal ottawa calgary regina victoria kingston hamilton usa america texas
california florida georgia virginia carolina dakota washington oregon nevada arizona utah
colorado montana idaho wyoming alaska hawaii ohio michigan indiana illinois kentucky
tennessee alabama mississippi louisiana arkansas missouri iowa minnesota wisconsin kansas
nebraska oklahoma maine vermont massachusetts connecticut delaware maryland pennsylvania
jersey york boston chicago houston dallas austin denver phoenix seattle portland atlanta
miami orlando tampa charlotte raleigh nashville memphis detroit cleveland columbus
cincinnati pittsburgh philadelphia baltimore richmond madison lincoln omaha tulsa jackson
savannah augusta charleston florence eugene tyler marion aurora alexandria elizabeth
brooklyn manhattan queens bronx mexico brazil argentina chile peru colombia lima santiago
bogota quito caracas cordoba egypt cairo jordan israel lebanon syria iraq iran dubai
qatar doha kuwait oman bahrain riyadh jeddah nigeria lagos abuja ghana accra kenya
nairobi ethiopia tanzania uganda rwanda morocco tunisia algeria senegal dakar shanghai
beijing shenzhen guangzhou hangzhou chengdu wuhan nanjing tianjin xian tokyo osaka kyoto
yokohama nagoya seoul busan hanoi saigon bangkok jakarta manila mumbai delhi bangalore
bengaluru chennai hyderabad pune kolkata karachi lahore dhaka chelsea hollywood europe
asia africa emea apac latam americas sahara siberia patagonia
""")

_CALENDAR = _words("""
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs
fri sat sun january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec christmas easter
""")

# Teams, departments and groups: "ask Finance", "email Support" do not name a person.
_GROUPS = _words("""
finance legal support sales marketing accounting accounts hr people ops operations devops
engineering eng product design data analytics compliance audit billing payroll management
procurement purchasing security it infra infrastructure platform sre qa research
leadership exec execs executives board everyone everybody someone somebody anyone nobody
team teams staff admin admins administrator ops oncall customer customers client clients
vendor vendors partner partners user users management helpdesk desk service services
facilities reception recruiting talent growth revenue treasury tax risk privacy trust
safety editorial content comms communications pr press media brand creative web mobile
backend frontend ml ai bi dba dbas sales-ops revops finops secops netops it-ops
""")

# Function words: never a name, whatever a name list says ("The", "Can", "An").
_FUNCTION = _words("""
the a an and or but nor if of in on at to for from by with as is are was were be been being
it its this that these those he she they we you i me my mine our ours your yours their
theirs his her hers them us him not no yes do does did done so than then there here what
which who whom whose when where why how all any each every some such only also just very
can could should would must might shall has have had use used using set get got new old see
per via into onto over under about after before again once up down out off more most less
least much many few other another same own both either neither too still yet already
""")

_TITLES = _words("""
mr mrs ms miss mx dr doctor prof professor sir dame madam madame mme mlle herr frau senor
senora senorita sra srta signor signora monsieur sheikh sheikha rev reverend lady lord
""")
_PARTICLES = _words(
    "van von der den de del della la le du dos das da di bin binti ibn bint "
    "al el ter ten zu af av y e"
)

# Before a name: words that say a person follows ("ask Will", "my manager Grant").
_PRE_PERSONAL = _words("""
ask asked asking tell told telling ping pinged remind reminded thank thanks thx cc bcc
congratulate invite invited meet met greet hi hello hey dear mentor introduce interview
interviewed hire hired fire fired manager boss lead colleague coworker co-worker teammate
wife husband partner spouse girlfriend boyfriend fiance fiancee son daughter mother father
mom mum dad sister brother friend assistant director supervisor intern cousin uncle aunt
nephew niece grandma grandpa grandmother grandfather doctor dentist landlord neighbor
neighbour ceo cfo cto coo cio cmo vp svp evp pm chair chairman chairwoman founder cofounder
""")
# Two-word cues ("meeting with", "talk to" ...): the last word before the name is the key.
_PRE_PERSONAL_PAIRS = {
    ("meeting", "with"),
    ("lunch", "with"),
    ("dinner", "with"),
    ("coffee", "with"),
    ("call", "with"),
    ("chat", "with"),
    ("talk", "to"),
    ("talk", "with"),
    ("speak", "to"),
    ("speak", "with"),
    ("spoke", "to"),
    ("spoke", "with"),
    ("talked", "to"),
    ("check", "with"),
    ("checked", "with"),
    ("sync", "with"),
    ("synced", "with"),
    ("loop", "in"),
    ("escalate", "to"),
    ("assigned", "to"),
    ("assign", "to"),
    ("owned", "by"),
    ("reviewed", "by"),
    ("approved", "by"),
    ("requested", "by"),
    ("reported", "by"),
    ("signed", "by"),
    ("sent", "by"),
    ("hand", "to"),
    ("handed", "to"),
    ("reach", "out"),
    ("follow", "up"),
    ("according", "to"),
    ("thanks", "to"),
    ("on", "behalf"),
    ("say", "hi"),
    ("catch", "up"),
    ("one", "with"),
    ("1:1", "with"),
    ("appointment", "with"),
    ("interview", "with"),
    ("meet", "with"),
    ("met", "with"),
    ("work", "with"),
    ("works", "with"),
    ("working", "with"),
    ("married", "to"),
}
# Contact verbs: a person or a system may follow ("email Yusuf", "call Okta").
_PRE_CONTACT = _words(
    "email emailed e-mail mail mailed call called phone phoned text texted "
    "message messaged dm dmed contact contacted"
)
# Weaker: they say a person may follow, enough only for a lower-case known name.
_PRE_WEAK = _words("with to for from by and or per visit see via")
_PRE_SKIP = _words("is was are were named")  # "my manager is Will"
# Before a tech name that is also a name, only words said to people count ("ask Julia",
# "my manager Ruby"), not "thanks to Kafka" or "owned by Jenkins".
_PRE_PEOPLE_ONLY = _PRE_PERSONAL - _words(
    "thank thanks thx fire fired hire hired lead partner intern founder cofounder"
)

# After a name: "Will said", "May prefers", "Grant is on leave", "Jordan from sales".
_POST_VERBS = _words("""
said says asked asks told tells thinks thought mentioned mentions prefers preferred likes
liked loves loved hates hated dislikes disliked wants wanted wishes wished feels felt
agreed agrees complained complains suggested suggests recommended recommends promised
promises replied replies emailed texted phoned signed joined resigned retired quit
insists insisted confirmed confirms noted notes explained explains decided decides
requested requests reported expects expected
""")
# The same without the words that are also plural nouns ("Short replies", "Page likes",
# "Release notes"): for ambiguous and unknown words.
_POST_VERBS_STRICT = _POST_VERBS - _words("""
likes liked loves loved hates hated wishes wished notes noted requests requested reported
replies expects expected decides decided confirms confirmed explains
explained asks insists suggests recommends promises complains agrees feels mentions tells
thinks dislikes
""")
_POST_STATE = _words(
    "out sick allergic vegan vegetarian pregnant away off retiring leaving "
    "back travelling traveling ooo pto"
)
_PERSON_NOUNS = _words("""
birthday bday wife husband partner spouse kids kid children child son daughter mom mum dad
mother father family sister brother boyfriend girlfriend phone cell mobile number email
address home flight vacation holiday leave manager boss desk calendar schedule
preference preferences anniversary wedding baby dog cat allergy allergies health salary
office diet surgery doctor assistant parents
""")
_DEPT_PREPS = _words("from at")
_KOREAN_SYLLABLES = _words("""
min jun seo yeon ji woo do hyun ha eun jae won soo ah ye jin sung hoon tae yang mi rae
dong yoo na seung ho hye young jung hee kyung sook ja chul sang jong kyu hwan bin hyuk
joon kwang yong gyu su yun bo ra ri rin chan wook seok sik geun il yeong hyo jeong ye
chae da so yu eun hae gi ki nam in sun hwa myung myeong byung han kyu dae jun seong
""")

# Romanised names that Faker has only in their own scripts, or not at all.
_EXTRA_FIRST = _words("""
wei fang min jing li lei jun yan hao hui ying xin yu yi jie tao ming hong ping qiang lin na
xiaoming xiaoyu xiaohong zihan haoran yichen yuxuan zhiwei jiahao xinyi yuting jiayi yutong
ruolan shuang zhenyu junjie jianguo guoqiang lihua xiuying guiying xiulan yulan jianhua
jianping haiyan xiaoyan lijuan yanping chunmei hongmei meiling xiaohui wenjie haoyu zixuan
yuhang zhihao chenxi ruoxi yiming jiaxin shiyu mingyu xiaolong tianyi yifan kexin jingyi
siyu wenhao qian mei
haruto yuto sota yuki hayato haruki ryota kaito takumi kenta daiki sho shota kenji takeshi
hiroshi satoshi takashi akira kazuki yusuke ryo ren riku hinata yui aoi hina yuna sakura
rin mio saki misaki ayumi naomi emi keiko yoko yumi akiko tomoko hiroko kumiko mayumi aya
nanami haruka mitsuki tsubasa kenichi koji masato naoki tetsuya makoto yoshiro daisuke
minh thuy anh huong duc linh quang tuan hieu ngoc khanh phuong thanh trang dung hoa bao
thao nhung vy hung nam hai trung quynh hang hanh hien hue loan nga nhi oanh tam tham thoa
tien uyen vinh xuan yen dat khoa kiet phuc phong quoc thang thinh toan
mohammed mohammad muhammad mohamed ahmed ahmad omar umar yusuf youssef ibrahim khalid
hassan hussein hussain abdullah abdul abdulrahman abdulaziz karim kareem tariq faisal rami
samir nabil walid waleed majid saeed salim mustafa mahmoud hamza bilal zaid ziad amr
yasser adel fadi ghassan jamal kamal khaled marwan osama qasim rashid sami tamer wael
fatima fatma aisha ayesha mariam maryam layla leila noor nour zainab zeinab salma huda
yasmin yasmine rania lina dina hana hanan reem rima amal amira asma dalia farah ghada
iman jamila lubna manal nadia najwa rasha rawan samira suha wafa zahra
chidi ngozi emeka oluwaseun adaeze folake tunde chiamaka ifeanyi yetunde obinna funmilayo
babajide amaka segun nneka kelechi bukola uche temitope chinonso chukwuemeka olumide
damilola ayodele abimbola oluwatobi chinedu nkechi kwame kofi kwabena akosua efua abena
yaw ama wanjiru wambui njeri achieng otieno baraka zawadi kamau kipchoge
priya rahul ananya arjun deepika vikram sneha rohan kavya aditya lakshmi sanjay meera
karthik divya suresh pooja nikhil anjali venkatesh harpreet gurpreet ishaan tanvi
reza hossein mehdi hamid dariush darius arash kamran babak farhad behnam shirin parisa
fatemeh niloufar nasrin roya mahsa ladan golnar bahram cyrus
""")
_EXTRA_LAST = _words("""
wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin gao luo zheng
liang xie song tang deng han feng cao peng zeng xiao tian dong pan yuan cai jiang yu du ye
cheng wei su lu ding ren shen yao zhong cui tan fan qian qiu gu hou shao meng duan qin kong
bai mao jia xue yan dai mo fu fang jin shi xiong zou
sato suzuki takahashi tanaka watanabe ito yamamoto nakamura kobayashi kato yoshida yamada
sasaki yamaguchi matsumoto inoue kimura hayashi shimizu yamazaki mori abe ikeda hashimoto
yamashita ishikawa nakajima maeda fujita ogawa goto okada hasegawa murakami kondo ishii
saito sakamoto endo aoki fujii nishimura fukuda ota miura fujiwara okamoto matsuda
nakagawa nakano harada ono tamura takeuchi kaneko wada nakayama ishida ueda morita hara
shibata sakai kudo yokoyama miyazaki miyamoto uchida takagi ando taniguchi maruyama imai
fujimoto takeda murata ueno sugiyama masuda sugawara hirano otsuka chiba kubo matsui
iwasaki sakurai kinoshita noguchi matsuo nomura kikuchi sano onishi sugimoto arai
kim lee park choi jung jeong kang cho yoon jang lim oh seo shin kwon hwang ahn yoo hong
jeon ko moon son bae baek heo nam noh kwak sung cha joo woo ryu chae won chun bang byun
nguyen tran le pham hoang huynh phan vu vo dang bui do ho ngo duong ly truong dinh lam
mai trinh luu quach doan
haddad khoury mansour nasser saleh hamdan farouk aziz khalil darwish suleiman najjar awad
masri farsi qureshi hashemi tahan qasim shaikh sheikh siddiqui chaudhry chaudhary rashid
okafor okonkwo adeyemi balogun eze ogunleye nwosu adebayo chukwu okoro afolabi ibekwe
olawale uzor akande onyeka bello abubakar oladipo oyelaran nnamdi mensah asante owusu
boateng osei agyeman mwangi odhiambo njoroge kiplagat ochieng wafula appiah darko kimani
otieno kamau
sharma patel iyer reddy nair gupta singh kumar mehta rao menon chatterjee banerjee desai
joshi pillai krishnan subramanian agarwal kapoor bhattacharya venkataraman srinivasan
hosseini moradi rahimi karimi tehrani ahmadi mohammadi rezaei jafari mousavi sadeghi
ghorbani rostami kazemi ebrahimi nouri azizi bagheri amini
""")

# Role and system local parts of email addresses.
_EMAIL_ROLES = _words("""
info support help helpdesk sales admin billing invoices invoice accounts ap ar noreply
no-reply donotreply do-not-reply team hello contact office hr jobs careers press media
marketing ops devops it security abuse postmaster webmaster root alerts alert notifications
notify reports report data analytics finance legal privacy compliance service services
orders order shop store feedback newsletter news updates bot system mailer daemon test
""")

_CYRILLIC = {
    "а": "a",
    "б": "b",
    "в": "v",
    "г": "g",
    "ґ": "g",
    "д": "d",
    "е": "e",
    "ё": "e",
    "є": "ye",
    "ж": "zh",
    "з": "z",
    "и": "i",
    "і": "i",
    "ї": "yi",
    "й": "y",
    "к": "k",
    "л": "l",
    "м": "m",
    "н": "n",
    "о": "o",
    "п": "p",
    "р": "r",
    "с": "s",
    "т": "t",
    "у": "u",
    "ф": "f",
    "х": "kh",
    "ц": "ts",
    "ч": "ch",
    "ш": "sh",
    "щ": "shch",
    "ъ": "",
    "ы": "y",
    "ь": "",
    "э": "e",
    "ю": "yu",
    "я": "ya",
}

# ---------------------------------------------------------------------------------------
# Lexicon: loaded once.


@dataclass(frozen=True)
class _Lexicon:
    first: frozenset[str]
    last: frozenset[str]
    english: frozenset[str]  # the 30,000 most frequent English words
    frequent: frozenset[str]  # the 10,000 most frequent
    ambiguous: frozenset[str]  # names that are frequent English words: "Will", "Grant"
    wordlike: frozenset[str]  # names from one language's list that are English words


_lexicon: _Lexicon | None = None
_lock = threading.Lock()


def _key(word: str) -> str:
    if word.isascii():
        return word.lower()
    return strip_accents(word).casefold().replace("’", "'")


_LATIN_CACHE: dict[str, bool] = {}


def _is_latin(text: str) -> bool:
    if text.isascii():
        return True
    for ch in text:
        ok = _LATIN_CACHE.get(ch)
        if ok is None:
            ok = not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN")
            _LATIN_CACHE[ch] = ok
        if not ok:
            return False
    return True


def _transliterate(text: str) -> str | None:
    lowered = text.lower()
    if not all(ch in _CYRILLIC or not ch.isalpha() for ch in lowered):
        return None
    return "".join(_CYRILLIC.get(ch, ch) for ch in lowered)


_SPLIT_NAME_RE = re.compile(r"[\s\-]+")


def _name_parts(name: str) -> list[str]:
    parts = []
    for part in _SPLIT_NAME_RE.split(_key(name)):
        part = part.strip(".,")
        if len(part) >= 2 and part not in _PARTICLES:
            parts.append(part)
    return parts


# Faker locales whose names are only in a script that is neither Latin nor Cyrillic (and
# that have no romanised list): not loaded, to save time.
_NON_LATIN_FAKER_LANGUAGES = frozenset("ar bn el fa gu he hi hy ka ko mr ne or si ta th".split())


def _faker_names() -> tuple[set[str], set[str], set[str]]:
    """First names, surnames and the names found in two or more languages, from Faker."""
    import faker.providers.person as person_providers

    raw: dict[str, tuple[set[str], set[str]]] = {}  # language -> (first, last)
    for module_info in pkgutil.iter_modules(person_providers.__path__):
        if module_info.name.split("_")[0] in _NON_LATIN_FAKER_LANGUAGES:
            continue
        module = importlib.import_module(f"{person_providers.__name__}.{module_info.name}")
        provider = getattr(module, "Provider", None)
        if provider is None:
            continue
        language = module_info.name.split("_")[0]
        raw_first, raw_last = raw.setdefault(language, (set(), set()))
        for attr, value in vars(provider).items():
            lowered = attr.lower()
            if "first_name" in lowered or "first_romanized" in lowered:
                target = raw_first
            elif "last_name" in lowered or "last_romanized" in lowered:
                target = raw_last
            else:
                continue
            if isinstance(value, (tuple, list, dict, set, frozenset)):
                target.update(name for name in value if isinstance(name, str))

    def keys(names: set[str]) -> set[str]:
        out: set[str] = set()
        for name in names:
            if name.isascii() and name.isalpha():
                if len(name) >= 2:
                    out.add(name.lower())
                continue
            if not _is_latin(name):
                transliterated = _transliterate(name)
                if transliterated is None:
                    continue
                name = transliterated
                if name.endswith("iy"):  # Dmitriy -> also Dmitri, Dmitry
                    out.update(_name_parts(name[:-1]))
                    out.update(_name_parts(name[:-2] + "y"))
            out.update(_name_parts(name))
        return out - _PARTICLES

    first: set[str] = set()
    last: set[str] = set()
    seen_once: set[str] = set()
    multi: set[str] = set()
    for raw_first, raw_last in raw.values():
        language_keys = keys(raw_first)
        first |= language_keys
        last_keys = keys(raw_last)
        last |= last_keys
        language_keys |= last_keys
        multi |= language_keys & seen_once
        seen_once |= language_keys
    return first, last, multi


def _english_words() -> tuple[frozenset[str], frozenset[str]]:
    """The 30,000 and the 10,000 most frequent English words (wordfreq's small list)."""
    ranked = [_key(w) for w in _wordfreq_small_english() if w.isalpha()]
    return frozenset(ranked), frozenset(ranked[:10000])


def _wordfreq_small_english() -> list[str]:
    """wordfreq's small English list, most frequent first.

    Read straight from the package's data file (a gzipped msgpack list of frequency
    bins), which skips importing wordfreq itself (0.7 s of its own imports); falls back to
    ``wordfreq.top_n_list`` when the file is not where it was.
    """
    try:
        import gzip
        import importlib.util
        import os

        import msgpack

        spec = importlib.util.find_spec("wordfreq")
        assert spec is not None and spec.submodule_search_locations
        path = os.path.join(spec.submodule_search_locations[0], "data", "small_en.msgpack.gz")
        with gzip.open(path, "rb") as handle:
            data = msgpack.load(handle, raw=False)
        assert isinstance(data[0], dict) and data[0].get("format") == "cB"
        words = [w for bin_ in data[1:] for w in bin_]
        assert len(words) > 20000
        return words
    except Exception:  # noqa: BLE001 - any change in the data layout: use the API
        from wordfreq import top_n_list

        return top_n_list("en", 30000, wordlist="small")


def _build() -> _Lexicon:
    first, last, multi = _faker_names()
    first |= _EXTRA_FIRST
    last |= _EXTRA_LAST
    english, frequent = _english_words()
    # Names that are also less frequent English words ("Handler", "Decimal") and that only
    # one language's list has: taken for names only with more evidence.
    plain_names = multi | _EXTRA_FIRST | _EXTRA_LAST | _COMMON_NAMES
    wordlike = ((first | last) & english) - plain_names
    # Ranked high in English because they are words, not because they are names.
    ambiguous = ((first | last) & frequent) - _COMMON_NAMES
    ambiguous |= _AMBIGUOUS_EXTRA
    ambiguous |= (first | last) & (_PLACES | _CALENDAR)
    first -= _TITLES
    last -= _TITLES
    return _Lexicon(
        first=frozenset(first),
        last=frozenset(last),
        english=english,
        frequent=frequent,
        ambiguous=frozenset(ambiguous),
        wordlike=frozenset(wordlike),
    )


def load() -> None:
    """Load the word lists now (they load by themselves on the first call otherwise)."""
    _get_lexicon()


def _get_lexicon() -> _Lexicon:
    global _lexicon
    lexicon = _lexicon
    if lexicon is None:
        with _lock:
            if _lexicon is None:
                _lexicon = _build()
            lexicon = _lexicon
    return lexicon


# ---------------------------------------------------------------------------------------
# Tokens.

_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*(?:['’]s\b|['’](?=\s|$))?")
_NAME_SHAPE_RE = re.compile(
    r"^(?:(?:Mc|Mac|O'|D'|Di|De|Da|La|Le|Van|Von|Fitz|Al-|El-)?[^\W\d_][^\W\d_A-Z]*)"
    r"(?:[-'][^\W\d_][^\W\d_A-Z]*)*$"
)
_CODE_BEFORE = set("._/\\=`#@$<>[{|~*%")
_CODE_AFTER = set("_/\\=`(<>[{$@|~*%")


@dataclass(slots=True)
class _Token:
    text: str  # without a possessive 's
    start: int
    end: int  # end of the word, without the possessive
    raw_end: int  # end with the possessive
    key: str
    cap: bool  # written as a name: first letter upper case, not all caps, not CamelCase
    lower: bool
    possessive: bool
    code: bool
    kind: str = ""  # see _classify


def _tokenize(text: str, lex: _Lexicon) -> list[_Token]:
    """Words of the text, each with its kind (see _classify)."""
    tokens: list[_Token] = []
    n = len(text)
    code_before = _CODE_BEFORE
    code_after = _CODE_AFTER
    first_names, last_names, english = lex.first, lex.last, lex.english
    titles, particles, token_cls = _TITLES, _PARTICLES, _Token
    for match in _TOKEN_RE.finditer(text):
        word = match.group()
        start, raw_end = match.span()
        possessive = False
        last = word[-1]
        if last in "'’":
            word, possessive = word[:-1], True
        elif last == "s" and len(word) > 2 and word[-2] in "'’":
            word, possessive = word[:-2], True
        end = start + len(word)
        key = word.lower() if word.isascii() else _key(word)
        upper = word[0].isupper()
        if (
            not upper
            and key in english
            and key not in first_names
            and key not in last_names
            and key not in titles
            and key not in particles
        ):
            # A lower-case English word that no name list knows: only ever a cue word.
            tokens.append(
                token_cls(word, start, end, raw_end, key, False, True, possessive, False, "X")
            )
            continue
        before = text[start - 1] if start else " "
        after = text[end] if end < n and not possessive else " "
        code = (
            before in code_before
            or after in code_after
            or before.isdigit()
            or after.isdigit()
            or (after in ".:" and _glued(text, end + 1))
            or (before in "'\"" and after == before)
        )
        if upper:
            # Written as a name: not ALL CAPS, not CamelCase (but McAllister, O'Brien).
            cap = not (len(word) > 1 and word.isupper()) and _NAME_SHAPE_RE.match(word) is not None
            lower = False
        else:
            cap = False
            lower = word.islower()
        tok = _Token(word, start, end, raw_end, key, cap, lower, possessive, code)
        tok.kind = "X" if code else _classify(tok, lex)
        tokens.append(tok)
    return tokens


def _glued(text: str, pos: int) -> bool:
    """Is the character at pos part of an identifier ("df.merge", "orders.region")?"""
    return pos < len(text) and (text[pos].isalnum() or text[pos] in "_/")


def _korean_given(key: str) -> bool:
    """'min-jun', 'seo-yeon', 'minjun', 'jiwoo': two Korean syllables."""
    parts = key.split("-")
    if len(parts) == 2:
        return all(p in _KOREAN_SYLLABLES for p in parts)
    if "-" in key or not 4 <= len(key) <= 8:
        return False
    syllables = _KOREAN_SYLLABLES
    return any(key[:i] in syllables and key[i:] in syllables for i in range(2, len(key) - 1))


def _classify(token: _Token, lex: _Lexicon) -> str:
    """S first name, L surname, W ambiguous name, T tech, P place, U unknown word,
    E less frequent English word, X frequent word."""
    key = token.key
    if key in _FUNCTION:
        return "X"
    if key in _TECH:
        return "T"
    if key in _CALENDAR and key not in lex.first:
        return "X"
    if key in _PLACES and key not in lex.first and key not in lex.last:
        return "P"
    if key in _PARTICLES:
        return "W" if token.cap else "X"
    if key in _TITLES or key in _GROUPS:
        return "X"
    if "-" in key:
        return _classify_compound(key, lex)
    if key in lex.ambiguous:
        return "W"
    if key in lex.first:
        return "S"
    if key in lex.last:
        return "L"
    if key not in lex.english and _korean_given(key):
        return "S"
    if key in lex.frequent:
        return "X"
    if key in lex.english:
        return "E"  # a less frequent English word: "Handler", "Procurement"
    return "U"


def _classify_compound(key: str, lex: _Lexicon) -> str:
    """'Anne-Sophie', 'Mensah-Ellis', 'Al-Rashid', 'Ha-eun' are names; 'Faith-based' is not."""
    parts = [p for p in key.split("-") if p]
    if not parts:
        return "X"
    if _korean_given(key):
        return "S"
    if any(p in _TECH for p in parts):
        return "X"  # "Pascal-case", "Jenkins-based"
    known = [p in lex.first or p in lex.last or p in _PARTICLES for p in parts]
    if all(known):
        if parts[0] in lex.first and parts[0] not in lex.ambiguous:
            return "S"
        if any(
            (p in lex.first or p in lex.last) and p not in lex.ambiguous and p not in _PARTICLES
            for p in parts
        ):
            return "L"
        return "W"
    if any(p in lex.english and not k for p, k in zip(parts, known, strict=True)):
        return "X"  # "Faith-based", "Pascal-case", "follow-up"
    if any(k and p not in _PARTICLES for p, k in zip(parts, known, strict=True)):
        return "L"  # "Okonkwo-Eze": one part known
    return "U"


# ---------------------------------------------------------------------------------------
# Rules.


def _gap(text: str, a: _Token, b: _Token) -> str:
    return text[a.raw_end : b.start]


def _joined(text: str, a: _Token, b: _Token) -> bool:
    """Two tokens written next to each other as parts of one name (one space)."""
    return not a.possessive and _gap(text, a, b) == " "


def _mark_tech_phrases(tokens: list[_Token]) -> None:
    keys = [t.key.replace("'", "") for t in tokens]
    for i, key in enumerate(keys):
        for phrase in _TECH_PHRASES_BY_FIRST.get(key, ()):
            k = len(phrase)
            if keys[i : i + k] == phrase:
                for t in tokens[i : i + k]:
                    t.kind = "X"


_TECH_PHRASES_BY_FIRST: dict[str, list[list[str]]] = {}
for _phrase in _TECH_PHRASES:
    _TECH_PHRASES_BY_FIRST.setdefault(_phrase.split()[0], []).append(_phrase.split())


def _pre_cue(text: str, tokens: list[_Token], i: int) -> str:
    """What the words just before token i say: 'people' (only said of people: "ask",
    "my manager"), 'personal' (also "thanks to", "owned by"), 'contact' ("email", "call"),
    'weak' ("with", "to", "for") or ''."""
    j = i - 1
    # "my manager is Will", "thanks, Mark", "cc: Ana"
    while j >= 0 and tokens[j].key in _PRE_SKIP:
        j -= 1
    if j < 0:
        return ""
    gap = text[tokens[j].raw_end : tokens[j + 1].start]
    if len(gap) > 3 or any(ch in gap for ch in ".!?;\n()[]"):
        return ""
    prev = tokens[j]
    if prev.code:
        return ""
    key = prev.key
    if key in _PRE_PEOPLE_ONLY:
        return "people"
    if j >= 1 and (tokens[j - 1].key, key) in _PRE_PERSONAL_PAIRS:
        return "personal"
    if key in _PRE_PERSONAL:
        return "personal"
    if key in _PRE_CONTACT:
        return "contact"
    if key in _PRE_WEAK:
        return "weak"
    return ""


def _post_cue(text: str, tokens: list[_Token], i: int, strict: bool = False) -> bool:
    """Words just after token i that say it is a person (strict: fewer verbs)."""
    tok = tokens[i]
    if tok.possessive:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and nxt.key in _PERSON_NOUNS and _gap(text, tok, nxt).strip() == "":
            return True
        # "Will's new phone", "Priya's home address"
        nxt2 = tokens[i + 2] if i + 2 < len(tokens) else None
        between = text[tok.raw_end : nxt2.start] if nxt2 is not None else ""
        return bool(
            nxt2 is not None
            and nxt2.key in _PERSON_NOUNS
            and between.count(" ") <= 2
            and not any(c in between for c in ".,;:\n")
        )
    if i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    gap = _gap(text, tok, nxt)
    if gap.strip(" ,") != "" or "\n" in gap:
        return False
    if gap.strip() == ",":
        # apposition: "Ana, our CFO," / "Will, my manager,"
        if nxt.key in {"our", "my", "the", "his", "her", "their", "your"} and i + 2 < len(tokens):
            return tokens[i + 2].key in _PRE_PEOPLE_ONLY
        return False
    if nxt.key in (_POST_VERBS_STRICT if strict else _POST_VERBS):
        return True
    if nxt.key in {"is", "was", "will", "has", "had"} and i + 2 < len(tokens):
        nxt2 = tokens[i + 2]
        if nxt2.key in _POST_STATE:
            return True
        if (
            nxt2.key == "on"
            and i + 3 < len(tokens)
            and tokens[i + 3].key
            in {"leave", "vacation", "holiday", "pto", "maternity", "paternity", "parental", "sick"}
        ):
            return True
    if nxt.key in _DEPT_PREPS and i + 2 < len(tokens):
        nxt2 = tokens[i + 2]
        if nxt2.key in _GROUPS:
            return True
        if nxt2.key == "the" and i + 3 < len(tokens) and tokens[i + 3].key in _GROUPS:
            return True
    return False


def _email_names_person(local: str, lex: _Lexicon) -> bool:
    """Does the local part of an email address hold a person's name?"""
    key = _key(local)
    if key in _EMAIL_ROLES:
        return False
    parts = [re.sub(r"\d+$", "", p) for p in re.split(r"[._+\-]+", key)]
    parts = [p for p in parts if p and p.isalpha()]
    if not parts or all(p in _EMAIL_ROLES or p in _GROUPS or p in _TECH for p in parts):
        return False

    def named(p: str) -> bool:
        if p in _TECH or p in _EMAIL_ROLES or p in _GROUPS or p in _FUNCTION:
            return False
        return p in lex.first or p in lex.last or (p not in lex.english and _korean_given(p))

    def strong(p: str) -> bool:
        return named(p) and p not in lex.ambiguous

    def surname_like(p: str) -> bool:
        return len(p) >= 3 and (strong(p) or p not in lex.english) and p not in _TECH

    if len(parts) >= 2:
        long_parts = [p for p in parts if len(p) > 1]
        if any(strong(p) for p in long_parts):
            return True  # "ana.lopez", "priya.ops"
        if len(long_parts) < len(parts):
            # "j.okafor", "d.tehrani": an initial and a surname
            return any(surname_like(p) for p in long_parts)
        if sum(named(p) for p in long_parts) >= 2:
            return True  # "will.young"
        # "mark_whitfield": a first name and a word that is no English word
        return any(p in lex.first for p in long_parts) and any(
            surname_like(p) for p in long_parts if p not in lex.first
        )
    word = parts[0]
    if word in lex.english:
        return strong(word) and word not in lex.wordlike and word not in lex.frequent
    if strong(word):
        return True  # "priya@"
    # "jokafor", "sdahl", "hlim": an initial and a surname
    rest = word[1:]
    if len(rest) >= 3 and rest in lex.last and rest not in lex.ambiguous:
        return True
    for particle in ("von", "van", "de", "del", "della", "le", "la", "al", "el", "di", "da"):
        if rest.startswith(particle) and rest[len(particle) :] in lex.last:
            return True  # "fvonbulow"
    # "anamartinez", "taeyangsong"
    return any(
        named(word[:k]) and word[:k] not in lex.ambiguous and named(word[k:])
        for k in range(3, len(word) - 2)
    )


def _title_at(text: str, tokens: list[_Token], i: int, lex: _Lexicon) -> int | None:
    """Rule 1: if token i is a title followed by a name, the index of the name's last token."""
    tok = tokens[i]
    if tok.key not in _TITLES or tok.code or tok.possessive or i + 1 >= len(tokens):
        return None
    if not tok.cap and tok.key in {"miss", "lady", "lord", "doctor", "sir", "dame", "madam"}:
        return None
    j = i + 1
    if text[tok.end : tokens[j].start] not in (" ", ". ", "."):
        return None
    # "Ms. van der Berg", "Mr. de la Cruz": particles, then the name.
    k = j
    while (
        k + 1 < len(tokens)
        and tokens[k].key in _PARTICLES
        and _joined(text, tokens[k], tokens[k + 1])
        and tokens[k + 1].key not in _FUNCTION
    ):
        k += 1
    if k > j and tokens[k].kind == "X" and tokens[k].key not in lex.last:
        k = j  # "Dr. Le is out": the particle was the surname
    cand = tokens[k]
    if cand.code or cand.key in _FUNCTION or cand.key in _GROUPS or cand.key in _TITLES:
        return None
    if len(cand.key) < 2:
        return None  # "the MS C runtime"
    in_lists = cand.key in lex.first or cand.key in lex.last
    if cand.cap:
        ok = True  # after a title, a capitalised word is a name: "Dr. Strange", "Mr. Long"
    else:
        ok = cand.lower and (in_lists or cand.kind in "SLU")
    if not ok:
        return None
    return _extend_name(text, tokens, k)


def _extend_name(text: str, tokens: list[_Token], j: int) -> int:
    """Index of the last token of the name that starts at token j."""
    end = j
    while end + 1 < len(tokens) and _joined(text, tokens[end], tokens[end + 1]):
        nxt = tokens[end + 1]
        if nxt.cap and nxt.kind in "SLU":
            end += 1
        elif (
            nxt.key in _PARTICLES
            and end + 2 < len(tokens)
            and tokens[end + 2].cap
            and _joined(text, nxt, tokens[end + 2])
        ):
            end += 2
        else:
            break
    return end


def _run_is_name(run: list[_Token], lex: _Lexicon) -> bool:
    """Rule 2: two or more capitalised name words in a row."""
    kinds = [t.kind for t in run]
    if any(k not in "SLWTUE" for k in kinds):
        return False
    strong = [t for t in run if t.kind in "SL"]
    if strong and (
        any(t.key not in lex.wordlike for t in strong) or all(k in "SLW" for k in kinds)
    ):
        # "Chidi Okonkwo", "Grant Holloway", "Ruby Chen", "Priya Raman", "Handler Pearson"
        # but not "General Decimal Arithmetic" (words a dictionary knows around a name).
        return True
    # "Mark Whitfield": an ambiguous first name, then a word no list or dictionary knows.
    head = run[0]
    return (
        head.kind == "W"
        and head.key in lex.first
        and head.key not in _PLACES
        and head.key not in _CALENDAR
        and all(k == "U" for k in kinds[1:])
    )


def _is_name_word(tok: _Token) -> bool:
    return tok.cap and tok.kind in "SLWTUE" and not tok.code


def find_person_mentions(text: str) -> list[PersonMention]:
    """Spans of ``text`` that look like a specific person's name (R-SAVE-3b).

    An empty list means no person was found. See the module docstring for the rules.
    Thread-safe; the word lists load on the first call.
    """
    if not text:
        return []
    lex = _get_lexicon()
    spans: list[tuple[int, int]] = []

    # Rule 5: emails. Their words are not looked at again.
    email_spans = []
    for match in EMAIL_RE.finditer(text):
        email_spans.append((match.start(), match.end()))
        if _email_names_person(match.group(0).split("@", 1)[0], lex):
            spans.append((match.start(), match.end()))
    tokens = _tokenize(text, lex)
    if email_spans:
        tokens = [t for t in tokens if not any(s <= t.start < e for s, e in email_spans)]
    if not tokens:
        return _to_mentions(text, spans)
    _mark_tech_phrases(tokens)

    n = len(tokens)
    used = [False] * n

    # Rule 1: a title and a name.
    for i in range(n):
        if used[i] or tokens[i].key not in _TITLES:
            continue
        end = _title_at(text, tokens, i, lex)
        if end is not None:
            spans.append((tokens[i].start, tokens[end].end))
            for k in range(i, end + 1):
                used[k] = True

    # Rule 2: runs of capitalised name words.
    i = 0
    while i < n:
        if used[i] or not _is_name_word(tokens[i]):
            i += 1
            continue
        j = i
        while j + 1 < n and not used[j + 1] and _joined(text, tokens[j], tokens[j + 1]):
            nxt = tokens[j + 1]
            if _is_name_word(nxt):
                j += 1
            elif (
                nxt.key in _PARTICLES
                and nxt.lower
                and j + 2 < n
                and _joined(text, nxt, tokens[j + 2])
                and _is_name_word(tokens[j + 2])
            ):
                j += 2
            else:
                break
        run = [t for t in tokens[i : j + 1] if not (t.key in _PARTICLES and t.lower)]
        if len(run) >= 2 and _run_is_name(run, lex):
            spans.append((tokens[i].start, tokens[j].end))
            for k in range(i, j + 1):
                used[k] = True
        i = j + 1

    # Rules 3 and 4: single words.
    for i, tok in enumerate(tokens):
        if used[i] or tok.kind in "XP" or tok.code:
            continue
        if tok.cap:
            if tok.kind in "SL" and tok.key not in lex.wordlike:
                held = True  # "Priya prefers CSV", "send it to Okafor"
            elif tok.kind == "E":
                held = False
            elif (pre := _pre_cue(text, tokens, i)) == "people" or (
                pre in ("personal", "contact") and tok.kind != "T"
            ):
                held = True  # "ask Will", "my manager Julia", "ping Oyelaran", "email Yusuf"
            elif tok.kind in "SLWU":
                # "Will said", "Jordan from sales", "Zhyldyz said"
                held = _post_cue(text, tokens, i, strict=tok.kind in "WU")
            else:  # tech: only "Julia's birthday"
                held = tok.possessive and _post_cue(text, tokens, i)
            if held:
                spans.append((tok.start, tok.end))
                used[i] = True
            continue
        if not tok.lower:
            continue
        nxt = tokens[i + 1] if i + 1 < n else None
        if nxt is not None and not used[i + 1] and _lower_pair(text, tok, nxt, lex):
            spans.append((tok.start, nxt.end))  # "chidi okonkwo", "wang zihan"
            used[i] = used[i + 1] = True
            continue
        if tok.kind in "SL":
            pre = _pre_cue(text, tokens, i)
            if pre in ("people", "personal", "contact") or (
                tok.key not in lex.wordlike
                and ((pre == "weak" and tok.kind == "S") or _post_cue(text, tokens, i))
            ):
                spans.append((tok.start, tok.end))
                used[i] = True
        elif tok.kind == "W" and tok.possessive and _post_cue(text, tokens, i):
            spans.append((tok.start, tok.end))  # "will's birthday"
            used[i] = True

    return _to_mentions(text, spans)


def _lower_pair(text: str, a: _Token, b: _Token, lex: _Lexicon) -> bool:
    """Two lower-case words that are a first name and a surname (either order)."""
    if not (a.lower and b.lower and _joined(text, a, b)) or a.code or b.code:
        return False
    kinds = a.kind + b.kind
    if any(k not in "SLWU" for k in kinds) or not ("S" in kinds or "L" in kinds):
        return False
    if all(t.key in lex.wordlike for t in (a, b) if t.kind in "SL"):
        return False  # "handler subclasses"
    for tok in (a, b):
        if tok.kind == "U" and (tok.key in lex.english or len(tok.key) < 3):
            return False
        if (
            tok.kind == "W"
            and tok.key in lex.frequent
            and tok.key not in lex.first
            and tok.key not in lex.last
        ):
            return False
    return True


def _to_mentions(text: str, spans: list[tuple[int, int]]) -> list[PersonMention]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return [PersonMention(text=text[s:e], start=s, end=e) for s, e in merged]
