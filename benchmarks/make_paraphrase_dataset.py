"""Seeded generator for the note-search paraphrase benchmark.

Writes ``benchmarks/data/paraphrase_notes.jsonl`` and
``benchmarks/data/paraphrase_queries.jsonl`` (both committed; re-running with
the same seed rewrites them byte for byte)::

    .venv/bin/python benchmarks/make_paraphrase_dataset.py [--seed 20261202] [--users 120]

What it models: AI agents keep ~50 short notes per user (``key`` like
``pref.tone``, ``team.date_format``, ``orders.amount``; ``value`` one short
sentence) and later search them with a question phrased in their own words.

* notes: per user about 12 preferences, 10 team conventions, 16 facts about
  the tables and columns of that user's schema (4-5 tables drawn from 16, key
  casing snake, camel or prefixed per user) and 10 workflow habits, so every
  user has many notes on neighbouring subjects (tone vs length vs layout,
  order amount vs order currency vs invoice amount ...).
* queries: 10 per user, spread over the four topics, never derived from the
  note text.  Two styles, both checked by stem and 5-letter prefix:
  - "paraphrase" (about 65%): written per facet in other words ("how should
    I format my answer?"); may share no content word with the target's key
    or value.  Table questions name the table itself in a quarter of them, as
    people do; that name is the one word allowed to match the key.
  - "concept" (about 35%): names the subject the way a key does ("what's
    their timezone?", "is created_at on orders in UTC?") but may share no
    word with the target's value.
  So no query copies the note's content; every word a query shares with its
  note is a word of the key.  The consequence for lexical ranking: any match
  on a note's value is, by construction, a distractor.
* split: users are split 50/50 into "dev" and "heldout"; a query's split is
  its user's.  Query templates are shared by both splits, values and the mix
  of notes per user are not.

Lexical overlap statistics are printed at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search_ranking import STOP_WORDS, analyze, tokens  # noqa: E402

DATA_DIR = Path(__file__).resolve().parent / "data"
NOTES_PATH = DATA_DIR / "paraphrase_notes.jsonl"
QUERIES_PATH = DATA_DIR / "paraphrase_queries.jsonl"


@dataclass
class Facet:
    """One kind of note: key spellings, value variants and question paraphrases."""

    name: str
    topic: str
    keys: list[str]
    values: list[str]
    queries: list[str]
    fill: dict[str, list[str]] = field(default_factory=dict)


# ----------------------------------------------------------------- preferences

PREFERENCES = [
    Facet("tone", "preference",
          ["pref.tone", "preferences.tone", "style.voice", "user.tone_of_voice", "prefs.replyTone"],
          ["keep replies short, no emoji", "friendly and casual, emoji welcome",
           "formal and precise, no small talk or slang", "plain and direct; skip the pleasantries",
           "warm but professional, never sarcastic", "dry humour is fine, but no exclamation marks"],
          ["what voice should I use when I write back?",
           "is a chatty, jokey manner okay with this person?", "how formal should I sound?",
           "what register do they like in responses?", "can I be playful in my messages to them?",
           "what attitude should my wording convey?"]),
    Facet("length", "preference",
          ["pref.length", "preferences.verbosity", "style.answer_length", "prefs.detailLevel"],
          ["three sentences at most unless asked for more", "thorough explanations with worked examples",
           "one-line answers; expand only on request", "a paragraph is fine, walls of text are not",
           "prefers exhaustive detail, long is fine"],
          ["how much should I write?", "do they want brief or lengthy explanations?",
           "what's the right amount of depth in a response?", "how long can my answers get?",
           "should I elaborate or stay concise?"]),
    Facet("language", "preference",
          ["pref.language", "preferences.locale", "user.spoken_language", "prefs.replyLang"],
          ["reply in German", "Spanish for chat, English for code comments", "British English spelling, please",
           "French, even when the question comes in English", "Portuguese (Brazil)", "Dutch; English is a fallback"],
          ["which tongue should I answer in?", "what idiom does this person communicate in?",
           "in what language do they want messages?", "should I respond in their native speech?",
           "which locale do they read best?"]),
    Facet("code_language", "preference",
          ["pref.code_language", "preferences.snippets", "pref.scripting", "prefs.exampleCode"],
          ["Python for scripts; avoid Bash", "examples in TypeScript, strict mode", "Go, with the standard library only",
           "Rust when possible, otherwise Python", "plain SQL rather than an ORM", "Kotlin for anything on the JVM"],
          ["what should sample programs be written in?", "which stack do they want snippets for?",
           "in which programming tongue should I show examples?", "what tech do they like for small automation?",
           "which syntax should demo code use?"]),
    Facet("layout", "preference",
          ["pref.format", "preferences.output_format", "style.layout", "prefs.markdown"],
          ["bullet lists and headings", "plain paragraphs, no markdown", "tables for any comparison",
           "numbered steps for procedures", "a TL;DR line at the top, then details"],
          ["how should I format my answer?", "how do they like information laid out?",
           "should I structure responses with markup?",
           "what visual arrangement suits them best?", "lists or prose — which do they prefer?",
           "how should the body of a reply be organised?"]),
    Facet("name", "preference",
          ["pref.name", "user.call_me", "preferences.addressing", "profile.preferredName"],
          ["call me {first}, not {formal}", "address as Dr. {last}", "{first} is fine; no titles",
           "use the nickname {nick}", "Ms. {last} in writing to clients"],
          ["how should I greet this person?", "what do they want to be called?",
           "how do I address them at the start of a message?", "which form of their name should I use?"],
          {"first": ["Sam", "Alex", "Kim", "Jo", "Ravi", "Lena", "Tom", "Mia", "Omar", "Yuki"],
           "formal": ["Samuel", "Alexandra", "Kimberly", "Josephine", "Ravindra", "Magdalena", "Thomas", "Maria"],
           "last": ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Novak", "Ferreira", "Kowalski"],
           "nick": ["Kiki", "Bear", "Moe", "Zed", "Pip"]}),
    Facet("timezone", "preference",
          ["pref.timezone", "user.tz", "profile.location_tz", "prefs.timeZone"],
          ["Europe/Berlin", "Pacific time, Seattle", "UTC+5:30, Bangalore", "Sydney, AEST",
           "São Paulo, three hours behind UTC", "Eastern, New York"],
          ["where are they on the clock?", "what hours are local for this user?",
           "when is it morning for them?", "which offset should I use for their schedule?",
           "what region do they live in, hour-wise?"]),
    Facet("units", "preference",
          ["pref.units", "preferences.measurement", "user.unit_system", "prefs.metricOrImperial"],
          ["metric; temperatures in Celsius", "imperial measurements, Fahrenheit",
           "kilometres for distance, but pounds for body weight", "SI units only, no conversions"],
          ["should distances be in miles or kilometres?", "which measurement system do they use?",
           "how should I express weights and lengths?", "do they think in feet or metres?"]),
    Facet("currency", "preference",
          ["pref.currency", "user.money_display", "preferences.prices", "prefs.currencyCode"],
          ["show prices in EUR", "USD with two decimals", "Swiss francs, rounded to whole numbers",
           "GBP; include VAT when quoting"],
          ["what money should costs be quoted in?", "which denomination do they think in?",
           "how do I present a budget figure to them?", "dollars, euros or something else for expenses?"]),
    Facet("editor", "preference",
          ["pref.editor", "setup.ide", "user.tools.editor", "prefs.codeEditor"],
          ["Neovim with LazyVim", "VS Code, dark theme, vim bindings", "JetBrains PyCharm Professional",
           "Emacs with evil-mode", "Sublime Text"],
          ["what IDE do they work in?", "which program do they write code with?",
           "what tool should keyboard shortcuts be for?", "where do they edit source files?"]),
    Facet("os", "preference",
          ["pref.os", "setup.machine", "user.platform", "prefs.operatingSystem"],
          ["macOS on Apple silicon", "Ubuntu 24.04 laptop", "Windows 11 with WSL2", "Fedora workstation",
           "Arch Linux, rolling release"],
          ["what computer do they run?", "should shell commands target Linux or Mac?",
           "which platform is their laptop on?", "are install instructions for Windows needed?"]),
    Facet("shell", "preference",
          ["pref.shell", "setup.terminal_shell", "prefs.loginShell"],
          ["zsh with oh-my-zsh", "fish", "bash 5, no customisation", "PowerShell 7", "nushell"],
          ["which command interpreter is in their console?", "what prompt program do they type commands into?",
           "what syntax should one-liners for their console use?"]),
    Facet("contact", "preference",
          ["pref.notifications", "preferences.contact", "user.reach_me", "prefs.pingPolicy"],
          ["don't ping after 6pm", "Slack DM for urgent things, email otherwise", "no messages on weekends",
           "text message only if production is down", "batch non-urgent updates into one daily digest"],
          ["when is it okay to interrupt them?", "how should alerts reach them?",
           "what channel do they want to be bothered on?", "can I send something late in the evening?",
           "what's the rule for getting hold of them?"]),
    Facet("explain_why", "preference",
          ["pref.explanations", "preferences.teaching_style", "style.reasoning", "prefs.showWork"],
          ["explain the why, not just the how", "skip theory, give the commands",
           "show the trade-offs before a recommendation", "walk through reasoning step by step"],
          ["do they want background reasoning or only instructions?", "should I justify my suggestions?",
           "how much rationale belongs in an answer?", "do they care about the thinking behind a solution?"]),
    Facet("citations", "preference",
          ["pref.citations", "preferences.sources", "style.references", "prefs.linkDocs"],
          ["always link sources", "cite the official docs with URLs", "footnotes for every claim",
           "no links needed; they trust summaries"],
          ["should I back up claims with references?", "do they expect proof for facts I state?",
           "is it necessary to point to where information came from?"]),
    Facet("diet", "preference",
          ["pref.diet", "profile.food", "user.dietary", "prefs.allergies"],
          ["vegetarian, no mushrooms", "allergic to peanuts", "vegan", "halal", "gluten-free (coeliac)",
           "no pork, loves spicy food"],
          ["any restrictions when suggesting restaurants?", "what can't they eat?",
           "what should I keep in mind when ordering lunch for them?", "are there meals they avoid?"]),
    Facet("pronouns", "preference",
          ["pref.pronouns", "profile.pronouns", "user.refer_to_as"],
          ["they/them", "she/her", "he/him", "she/they"],
          ["how should I refer to this person in the third person?", "what words do they use for themselves?",
           "which he/she/they form fits them?"]),
    Facet("meetings", "preference",
          ["pref.meeting_time", "preferences.calendar", "user.availability", "prefs.meetingSlots"],
          ["meetings before noon only", "no calls on Fridays", "30-minute slots, never back to back",
           "afternoons are best, mornings are for focus"],
          ["when should I book calls with them?", "what slots suit them for a sync?",
           "at what hour can I put an appointment in their diary?"]),
    Facet("theme", "preference",
          ["pref.theme", "preferences.ui", "user.colour_scheme", "prefs.darkMode"],
          ["dark mode everywhere", "light theme, high contrast", "solarized dark in every tool"],
          ["light or dark colours on screens?", "what visual style do they pick for apps?",
           "which palette do they like in interfaces?"]),
    Facet("feedback", "preference",
          ["pref.review_style", "preferences.feedback", "style.critique", "prefs.codeReviewTone"],
          ["point out bugs first, style nits last", "be blunt about mistakes", "suggest fixes, don't just criticise",
           "praise what works before listing problems"],
          ["how do they want comments on their work?", "what's the best way to tell them something is wrong?",
           "how should I critique what they wrote?"]),
    Facet("learning", "preference",
          ["pref.learning", "profile.studying", "user.current_goal", "prefs.upskilling"],
          ["learning Rust; explain ownership carefully", "studying for the AWS Solutions Architect exam",
           "new to Kubernetes", "picking up Japanese, JLPT N4", "improving statistics for A/B testing"],
          ["what are they trying to get better at?", "what subject are they studying right now?",
           "what skill should I help them grow?"]),
    Facet("charts", "preference",
          ["pref.charts", "preferences.visualisation", "style.plots", "prefs.chartType"],
          ["bar charts over pie charts", "matplotlib with seaborn styling", "log scales when data spans magnitudes",
           "no 3D graphs, ever"],
          ["how should I visualise data for them?", "what kind of figures do they like?",
           "which graphics should I draw to show numbers?"]),
    Facet("travel", "preference",
          ["pref.travel", "profile.flights", "user.travel_prefs", "prefs.seating"],
          ["window seat, morning flights", "aisle seat; never red-eyes", "trains over planes under 600 km",
           "economy plus, always with checked luggage"],
          ["what should I pick when booking a trip for them?", "how do they like to get to a conference?",
           "any wishes for airline tickets?"]),
]

# ----------------------------------------------------------- team conventions

TEAM = [
    Facet("date_format", "team",
          ["team.date_format", "conventions.dates", "team.docs.date_style", "team.dateFormat"],
          ["dates as YYYY-MM-DD (ISO 8601)", "day/month/year, e.g. 31/01/2025", "write dates like 3 March 2025",
           "month name abbreviated: Jan 5, 2025"],
          ["how do we write calendar days in docs?", "which way round do day and month go?",
           "what's the house style for a deadline like the fifth of June?",
           "how should a day be spelled out in reports?"]),
    Facet("branch_naming", "team",
          ["team.branch_naming", "conventions.git.branches", "team.git_branches", "team.branchNames"],
          ["feature/<ticket>-<slug>", "initials then topic, e.g. jd/fix-login", "type/short-description, lowercase",
           "JIRA key first: APP-123-add-export"],
          ["what should I call a new git branch?", "how are work-in-progress lines of development named?",
           "what pattern do topic branches follow?"]),
    Facet("commit_style", "team",
          ["team.commit_messages", "conventions.commits", "team.git.commitStyle"],
          ["imperative mood, under 72 characters, ticket id at the end", "Conventional Commits: feat:, fix:, chore:",
           "a summary line plus a body explaining why", "prefix with the component, e.g. api: ..."],
          ["what's the house style for describing changes in version control?",
           "how do we phrase a change description when saving work to git?",
           "rules for the text attached to each changeset?"]),
    Facet("approvals", "team",
          ["team.code_review", "conventions.pull_requests", "team.merge_rules", "team.prApprovals"],
          ["two approvals needed before merge", "one approval plus green CI", "the on-call engineer reviews hotfixes",
           "a CODEOWNERS member must sign off"],
          ["how many sign-offs does a pull request need?", "who has to OK my change before it lands?",
           "what's required before something gets merged?"]),
    Facet("deploy_window", "team",
          ["team.deploy_days", "conventions.releases.window", "team.shipping", "team.deployWindow"],
          ["deploys only Tuesday to Thursday, never Fridays", "release every morning at 10 after the smoke tests",
           "production pushes only during business hours CET", "freeze from December 15 to January 5"],
          ["when are we allowed to ship to production?", "which days can I push to prod?",
           "is there a time when going live is forbidden?"]),
    Facet("standup", "team",
          ["team.standup", "rituals.daily_sync", "team.meetings.standup"],
          ["daily standup 9:30 CET in #eng-standup", "async standup: post in the thread before 10",
           "standup Mondays and Thursdays only, 15 minutes"],
          ["what time is the morning sync?", "how does the daily check-in work?",
           "when do we report progress to each other every day?"]),
    Facet("on_call", "team",
          ["team.on_call", "ops.pager_rotation", "team.incidents.rotation", "team.onCall"],
          ["rotation changes every Monday, see PagerDuty", "one week per engineer, handover Friday at 4pm",
           "primary and secondary responder, swap weekly"],
          ["who handles incidents at night?", "how does the pager schedule work?",
           "who gets woken up if production breaks?"]),
    Facet("sql_naming", "team",
          ["team.naming.sql", "conventions.database_names", "team.db_naming", "team.schemaNaming"],
          ["snake_case for tables and columns, plural table names", "singular table names, id as primary key",
           "prefix views with v_ and materialised views with mv_"],
          ["how should database objects be named?", "what casing do we use for relations and fields?",
           "rules for identifiers in our schema?"]),
    Facet("python_style", "team",
          ["team.python_style", "conventions.lint", "team.code_style", "team.pythonLint"],
          ["black + ruff, line length 100", "type hints required; mypy strict", "isort profile black, flake8 in CI"],
          ["what linter and formatter setup do we use?", "which tooling checks our source layout?",
           "what are the code quality checks for our scripts?"]),
    Facet("testing", "team",
          ["team.testing", "conventions.tests", "team.qa_policy", "team.testPolicy"],
          ["every bug fix ships with a regression test", "pytest only, no unittest classes",
           "coverage must not drop below 85%"],
          ["what's expected in terms of checks when I fix something?", "how do we verify our code automatically?",
           "rules about automated verification?"]),
    Facet("adr", "team",
          ["team.docs.decisions", "conventions.adr", "team.design_docs", "team.architectureRecords"],
          ["architecture decisions go in docs/adr as markdown", "design docs in Notion, one per epic",
           "RFCs as Google Docs, linked from the wiki"],
          ["where do we record why we chose a design?", "where does the write-up of a technical choice live?",
           "where should a proposal for a big change be written?"]),
    Facet("tracker", "team",
          ["team.tickets", "conventions.issue_tracker", "team.jira", "team.workItems"],
          ["Jira project key APP; every PR links its issue", "Linear, team ENG; one issue per PR",
           "GitHub issues with labels bug/feature/chore"],
          ["which tracker do we file work items in?", "where do bugs get logged?",
           "where do I open a task for something I need to do?"]),
    Facet("versioning", "team",
          ["team.versioning", "conventions.semver", "team.release_numbers"],
          ["semver; bump minor for new endpoints", "calendar versioning, YYYY.MM.patch",
           "major bumps only with a migration guide"],
          ["how do release numbers go up?", "what scheme do our package versions follow?",
           "when should the version tag increase?"]),
    Facet("secrets", "team",
          ["team.secrets", "security.credentials", "team.vault_policy", "team.secretStorage"],
          ["secrets live in Vault, never in .env files", "AWS Secrets Manager; rotate every 90 days",
           "1Password shared vault for API keys"],
          ["where should credentials be kept?", "how do we store passwords and tokens?",
           "where do I put an access key for a service?"]),
    Facet("docs_language", "team",
          ["team.docs_language", "conventions.writing_lang", "team.comments_lang"],
          ["code comments and docs in English even though the team speaks French",
           "internal wiki in German, public docs in English", "comments in English, commit bodies in Polish"],
          ["what language do we write internal documentation in?", "which tongue should annotations in source use?",
           "in what language is our wiki?"]),
    Facet("changelog", "team",
          ["team.changelog", "conventions.release_notes", "team.changes_file"],
          ["entries go in CHANGELOG.md under Unreleased", "release notes are drafted in the GitHub release",
           "one towncrier fragment per PR in newsfragments/"],
          ["where do I describe user-visible changes for the next version?",
           "how do we tell users what's new in a version?", "where do I add a line about my fix for the announcement?"]),
    Facet("dependencies", "team",
          ["team.dependencies", "conventions.deps", "team.package_upgrades", "team.libPinning"],
          ["pin exact versions; Renovate opens upgrade PRs weekly", "lock file committed, upgrades monthly",
           "no new third-party library without a review"],
          ["how are third-party library upgrades handled?", "what's our policy on adding packages?",
           "how do we keep external modules current?"]),
    Facet("feature_flags", "team",
          ["team.feature_flags", "conventions.flags", "team.rollout", "team.featureToggles"],
          ["new features go behind a LaunchDarkly flag", "flags removed within two sprints of full rollout",
           "toggle via settings.FEATURES, default off"],
          ["how do we roll out unfinished functionality?", "how can something half-built ship safely?",
           "how do we enable new behaviour for only some customers?"]),
    Facet("postmortem", "team",
          ["team.postmortems", "ops.incident_review", "team.incidents.followup"],
          ["blameless post-mortem within 48 hours of a sev1", "root-cause write-up in the incident channel",
           "five whys document reviewed on Thursday"],
          ["what happens after an outage?", "how do we learn from production failures?",
           "what's the process once an emergency is resolved?"]),
    Facet("api_style", "team",
          ["team.api_style", "conventions.rest", "team.http_endpoints", "team.apiUrls"],
          ["REST, plural nouns, kebab-case paths", "JSON:API with camelCase attributes",
           "GraphQL for reads, RPC-style POSTs for commands"],
          ["how should endpoint URLs look?", "what shape do our web service routes take?",
           "rules for designing a new web interface for clients?"]),
    Facet("error_handling", "team",
          ["team.error_handling", "conventions.exceptions", "team.failures"],
          ["never swallow exceptions; log with structlog and re-raise", "return Result types, no raising in the domain layer",
           "wrap third-party errors in our own AppError"],
          ["what should I do when catching a failure?", "how do we deal with things going wrong in code?",
           "policy for try/except blocks?"]),
    Facet("holidays", "team",
          ["team.holidays", "company.closures", "team.office_calendar"],
          ["office closed between Christmas and New Year", "summer shutdown the first two weeks of August",
           "Fridays off in July"],
          ["when is the company shut for a break?", "are there weeks when nobody works?",
           "which days is everyone away?"]),
]

# ------------------------------------------------------------ workflow habits

WORKFLOW = [
    Facet("pr_size", "workflow",
          ["workflow.pr_size", "habits.small_prs", "workflow.changeSize"],
          ["keeps pull requests under 300 lines", "splits big work into stacked PRs", "one concern per PR"],
          ["how big does this person make a change request?", "how much code goes into each review they open?",
           "do they submit huge diffs or small ones?"]),
    Facet("tests_first", "workflow",
          ["workflow.tdd", "habits.tests_first", "workflow.testingHabit"],
          ["writes the failing test before the fix", "red, green, refactor on every change",
           "adds a reproducing case before touching code"],
          ["in what order do they tackle a bug and its check?", "do they verify behaviour up front or afterwards?",
           "what do they do first when correcting a defect?"]),
    Facet("morning", "workflow",
          ["workflow.morning", "habits.start_of_day", "workflow.dailyRoutine"],
          ["checks dashboards first thing, then email", "reviews yesterday's alerts with coffee",
           "plans the day in a paper notebook at 8"],
          ["what's their routine at the beginning of a workday?", "what do they do when they sit down each day?",
           "how do they kick off their mornings?"]),
    Facet("focus", "workflow",
          ["workflow.focus", "habits.deep_work", "workflow.focusHours"],
          ["deep work 9-12, no interruptions", "Wednesdays are meeting-free maker days",
           "notifications off in the afternoon"],
          ["when do they do heads-down work?", "when do they protect time for uninterrupted thinking?",
           "what block is reserved for concentration?"]),
    Facet("git_habit", "workflow",
          ["workflow.git", "habits.rebase", "workflow.gitUpdate"],
          ["rebases on main, never merge commits", "squash-merges everything", "merges main in daily and resolves conflicts"],
          ["how do they bring a feature up to date with the trunk?", "how do they integrate upstream work?",
           "what's their approach to history when syncing?"]),
    Facet("notes_tool", "workflow",
          ["workflow.notes", "habits.journal", "workflow.notetaking"],
          ["keeps a work log in Obsidian", "daily notes in Logseq", "a plain text file per project"],
          ["where do they jot things down?", "what app holds their personal records of work?",
           "where do they write what they did today?"]),
    Facet("debugging", "workflow",
          ["workflow.debugging", "habits.troubleshooting", "workflow.bugHunting"],
          ["reproduces with a minimal script first", "bisects before reading the code",
           "adds logging, never uses a debugger"],
          ["how do they approach investigating a defect?", "what's their method for tracking down a problem?",
           "how do they figure out why something broke?"]),
    Facet("local_env", "workflow",
          ["workflow.local_env", "habits.dev_setup", "workflow.localServices"],
          ["runs everything in Docker Compose locally", "uses a cloud dev box, not the laptop",
           "nix-shell per repository"],
          ["how do they spin up dependencies on their laptop?", "where do they develop and run things?",
           "what's their setup for a working environment?"]),
    Facet("migration_checks", "workflow",
          ["workflow.after_migration", "habits.data_checks", "workflow.postMigrate"],
          ["always runs row counts after a migration", "compares checksums between old and new columns",
           "keeps a backup snapshot for a week after schema changes"],
          ["what do they verify after altering the schema?", "how do they make sure a data move went right?",
           "what's their safety net when restructuring the database?"]),
    Facet("sql_style", "workflow",
          ["workflow.sql", "habits.query_style", "workflow.queryWriting"],
          ["writes queries with CTEs, not nested subqueries", "always aliases tables with short names",
           "uppercase keywords, one clause per line"],
          ["how do they structure complicated database lookups?", "what does their typical SELECT look like?",
           "how do they lay out a long statement for the warehouse?"]),
    Facet("notebooks", "workflow",
          ["workflow.notebooks", "habits.prototyping", "workflow.exploration"],
          ["prototypes in Jupyter, then moves to scripts", "explores data in DuckDB from the CLI",
           "uses a spreadsheet for a first look"],
          ["how do they try out an analysis idea?", "what do they use for quick experiments?",
           "where do they poke at data before building something?"]),
    Facet("review_time", "workflow",
          ["workflow.review_time", "habits.code_review", "workflow.reviewSlot"],
          ["reviews PRs after lunch", "clears the review queue at 5pm", "reviews within two hours of a request"],
          ["when do they look at teammates' code?", "how fast will they check my merge request?",
           "at what point in the day do they give feedback on others' changes?"]),
    Facet("ai_usage", "workflow",
          ["workflow.ai_usage", "habits.assistant", "workflow.agentUse"],
          ["asks the agent to draft, then edits by hand", "uses the assistant only for boilerplate",
           "wants diffs, not whole files"],
          ["how do they like to collaborate with me?", "what role should I play in their writing?",
           "how do they use a bot like me day to day?"]),
    Facet("status_report", "workflow",
          ["workflow.weekly_report", "habits.status_update", "workflow.managerUpdate"],
          ["sends a status update to the manager Friday afternoon", "writes a weekly summary every Monday",
           "posts progress in #team-updates at end of sprint"],
          ["when do they summarise progress for their boss?", "how do they keep leadership informed?",
           "what regular progress write-up do they send upward?"]),
    Facet("breaks", "workflow",
          ["workflow.breaks", "habits.pomodoro", "workflow.restCycle"],
          ["pomodoro: 25 minutes, then a 5-minute pause", "walks at lunch, away from screens",
           "stands up every hour"],
          ["how do they pace their working sessions?", "do they step away during the day?",
           "what rhythm of rest do they keep?"]),
    Facet("terminal_mux", "workflow",
          ["workflow.terminal", "habits.tmux", "workflow.terminalLayout"],
          ["tmux with two panes: editor and tests", "iTerm split panes, one per service",
           "a single tab, everything in the foreground"],
          ["how do they arrange windows in their console?", "how many panes do they keep open while coding?",
           "what's their command line workspace like?"]),
]

# --------------------------------------------------------- tables and columns

# name: synonyms used in questions, row nouns, milestone (column, meaning,
# question), status values, whether money columns make sense.
TABLES = {
    "orders": dict(syn=["purchases", "sales"], rows=["purchase", "sale"], money=True,
                   status=["one of pending, paid, shipped, cancelled", "cart, placed, fulfilled, returned"],
                   milestone=("shipped_at", "null until the parcel leaves the warehouse",
                              "how can I tell a {R} hasn't been sent out yet?")),
    "customers": dict(syn=["clients", "buyers"], rows=["client", "buyer"], money=False,
                      status=["lead, active, churned", "one of prospect, trial, paying, lapsed"],
                      milestone=("verified_at", "null until the email link is clicked",
                                 "how do I know a {R} has confirmed their address?")),
    "invoices": dict(syn=["bills"], rows=["bill"], money=True,
                     status=["draft, issued, paid, void", "one of open, overdue, settled, written_off"],
                     milestone=("paid_at", "null until settled in full",
                                "how do I spot {T} nobody has covered yet?")),
    "payments": dict(syn=["transactions", "charges"], rows=["transaction", "charge"], money=True,
                     status=["authorised, captured, failed, refunded", "one of pending, succeeded, declined"],
                     milestone=("captured_at", "null while only authorised",
                                "how do I find {T} where the money hasn't actually been taken?")),
    "subscriptions": dict(syn=["plans people pay for monthly", "recurring billing"], rows=["membership"],
                          money=True, status=["trialing, active, past_due, canceled", "one of active, paused, ended"],
                          milestone=("cancelled_at", "null while active; set at cancellation, not at period end",
                                     "how can I see if a {R} was stopped?")),
    "products": dict(syn=["catalogue items", "SKUs"], rows=["item", "SKU"], money=True,
                     status=["draft, published, retired", "one of in_stock, backorder, discontinued"],
                     milestone=("discontinued_at", "null while still sold",
                                "how do I know an {R} is no longer for sale?")),
    "shipments": dict(syn=["deliveries", "parcels"], rows=["delivery", "parcel"], money=True,
                      status=["label_created, in_transit, delivered, lost", "one of packed, handed_over, returned"],
                      milestone=("delivered_at", "null until the carrier scan confirms drop-off",
                                 "how do I find {T} still on their way?")),
    "events": dict(syn=["tracking data", "analytics hits"], rows=["hit", "tracking record"], money=False,
                   status=["raw, enriched, discarded", "one of queued, processed, dead_letter"],
                   milestone=("processed_at", "null until the enrichment job has run",
                              "how do I see which {T} haven't been handled by the pipeline?")),
    "sessions": dict(syn=["visits", "logins"], rows=["visit", "login"], money=False,
                     status=["active, idle, expired", "one of open, timed_out, logged_out"],
                     milestone=("ended_at", "null while the visitor is still active",
                                "how do I tell which {T} are still going on?")),
    "tickets": dict(syn=["support requests", "help desk cases"], rows=["support request", "case"], money=False,
                    status=["open, waiting, solved, closed", "one of new, triaged, escalated, done"],
                    milestone=("closed_at", "null while the case is open",
                               "how can I find unresolved {T}?")),
    "employees": dict(syn=["staff", "personnel records"], rows=["staff member", "worker"], money=True,
                      status=["onboarding, active, on_leave, offboarded", "one of contractor, permanent, intern"],
                      milestone=("terminated_at", "null for current staff",
                                 "how do I filter out people who left the company?")),
    "accounts": dict(syn=["workspaces", "tenants"], rows=["workspace", "tenant"], money=False,
                     status=["trial, active, suspended, closed", "one of free, pro, enterprise"],
                     milestone=("suspended_at", "null unless billing froze it",
                                "how do I know a {R} has been frozen?")),
    "refunds": dict(syn=["reimbursements", "money returned"], rows=["reimbursement"], money=True,
                    status=["requested, approved, paid_out, rejected", "one of pending, done, denied"],
                    milestone=("approved_at", "null until finance approves",
                               "how do I find {T} still waiting for sign-off?")),
    "reviews": dict(syn=["ratings", "customer feedback"], rows=["rating"], money=False,
                    status=["pending, published, hidden", "one of visible, flagged, removed"],
                    milestone=("moderated_at", "null until a moderator has looked at it",
                               "how do I find {T} not yet checked by staff?")),
    "inventory": dict(syn=["stock levels", "warehouse stock"], rows=["stock record"], money=True,
                      status=["available, reserved, damaged", "one of on_hand, in_transit, quarantined"],
                      milestone=("counted_at", "null if never physically counted",
                                 "how do I see which {T} were never audited by hand?")),
    "campaigns": dict(syn=["marketing pushes", "promotions"], rows=["promotion", "marketing push"], money=True,
                      status=["draft, scheduled, running, finished", "one of planned, live, paused, over"],
                      milestone=("launched_at", "null while still a draft",
                                 "how do I find {T} that haven't started?")),
}

MONEY_COLS = ["amount", "total", "price", "fee", "total_due", "gross_value"]
REF_TABLES = {"customers": "buyer", "accounts": "workspace", "employees": "staff member", "products": "catalogue item"}

# Each table fact: column choices, values, questions.  {T}: table reference,
# {R}: a row, {C}: the column name, {REF}: referenced table's synonym.
TABLE_FACTS = {
    "money_unit": (MONEY_COLS,
                   ["stored in cents as an integer; divide by 100 for display",
                    "decimal with two places in the account's currency",
                    "minor units (pence or cents), never floats",
                    "includes tax; net figure is in a separate column"],
                   ["what unit is the money figure on {T} in?", "do I need to convert {T} values before showing a cost?",
                    "is the sum on a {R} whole dollars or fractions?", "how is the monetary value of a {R} represented?"]),
    "currency": (["currency", "currency_code", "ccy"],
                 ["ISO 4217 three-letter code, mostly EUR", "always USD; nothing is converted",
                  "the buyer's local denomination, as a code like GBP"],
                 ["which money are {T} charged in?", "dollars or euros on a {R}?",
                  "where do I see what denomination a {R} used?"]),
    "ts_zone": (["created_at", "inserted_ts", "placed_at", "occurred_at"],
                ["UTC timestamp without zone; convert for local reports", "server local time (Europe/Paris), not UTC",
                 "epoch milliseconds as bigint"],
                ["when a {R} was made, which clock is that moment on?", "is the creation moment of {T} in universal time?",
                 "how should I interpret the recorded moment of a {R}?"]),
    "status_enum": (["status", "state", "lifecycle"],
                    ["{STATUS}", "integer code 0-4; see the lookup in docs/status.md"],
                    ["what stages can a {R} go through?", "which conditions is a {R} allowed to be in?",
                     "what labels mark where a {R} is in its lifecycle?"]),
    "soft_delete": (["deleted_at", "is_deleted", "archived"],
                    ["non-null means soft-deleted; exclude in reports", "true marks rows hidden from users but kept for audit",
                     "rows are never physically removed; filter on this"],
                    ["how do I leave out removed {T} when counting?", "are erased {R} rows still physically present?",
                     "how do I ignore {T} someone threw away?"]),
    "fk": (["customer_id", "account_id", "owner_id", "product_id"],
           ["references {REFT}.id; nullable for old rows", "points at {REFT}.id, enforced by a foreign key",
            "joins to {REFT}.id but is not enforced, expect orphans"],
           ["how do I link {T} to the {REF} they belong to?", "what connects a {R} to its {REF}?",
            "how do I look up the {REF} for a {R}?"]),
    "pii": (["email", "phone", "ip_address", "full_name", "birth_date"],
            ["personal data: mask before exporting (GDPR)", "PII; never copy it into analytics",
             "sensitive, hashed in the replica"],
            ["which {T} field counts as private information?", "is there anything in {T} I must not share outside?",
             "what attribute of a {R} is confidential?"]),
    "deprecated": (["legacy_id", "old_status", "v1_amount", "source_system"],
                   ["deprecated since 2023, use external_ref instead", "no longer written; kept for history",
                    "obsolete, will be dropped next quarter"],
                   ["which {T} attribute is outdated?", "is there a field on {T} I should stop relying on?",
                    "what column of a {R} is on its way out?"]),
    "id_format": (["id", "uuid", "public_id"],
                  ["UUIDv7, roughly time-ordered", "bigint from a sequence; gaps are normal",
                   "ULID string, 26 characters", "prefixed string like {PFX}_8Hx2..."],
                  ["what do primary keys of {T} look like?", "what kind of identifier does each {R} get?",
                   "how is a {R} uniquely labelled?"]),
    "volume": (["row_count", "size", "volume"],
               ["about 40 million rows; always filter by date", "small, a few thousand rows; full scans are fine",
                "grows by ~2M rows a day; query the rollup instead"],
               ["is it safe to scan all of {T} at once?", "how large is {T}?", "how big does the {R} data get?"]),
    "milestone": ([],  # column and value come from TABLES
                  [], []),
    "owner": (["owner", "owning_team", "maintainer"],
              ["owned by the billing team; ask #billing before altering", "the data platform team maintains it",
               "growth squad owns it; schema changes need their review"],
              ["who maintains {T}?", "which group should I ask before changing {T}?",
               "who is responsible for the {R} data?"]),
    "refresh": (["refresh", "freshness", "sync_schedule"],
                ["reloaded nightly at 02:00 UTC from the warehouse", "streamed in real time via CDC",
                 "copied hourly from the production replica"],
                ["how current is the data in {T}?", "how often is {T} brought up to date?",
                 "how stale can a {R} be?"]),
}

# Questions that name the subject the way the note's key does ("timezone",
# "branch naming", "the orders amount") -- as people also ask -- but still never
# reuse a word of the note's value.  Used for about 40% of the queries.
CONCEPT = {
    # preferences
    "tone": ["what tone should I use with them?", "tone of voice preference?"],
    "length": ["preferred answer length?", "how verbose should responses be?"],
    "language": ["which language should I reply in?", "what language do they speak?"],
    "code_language": ["preferred programming language for examples?", "which language for code snippets?"],
    "layout": ["output format preference?", "do they want markdown formatting?"],
    "name": ["what name should I use for them?", "preferred name?"],
    "timezone": ["what's their timezone?", "which time zone are they in?"],
    "units": ["metric or imperial units?", "preferred units of measurement"],
    "editor": ["which editor do they use?", "code editor setup?"],
    "os": ["what operating system are they on?", "which OS?"],
    "shell": ["which shell do they use?", "default login shell?"],
    "contact": ["notification preferences?", "how should I contact them?"],
    "explain_why": ["how much explanation do they want?", "do they like reasoning explained?"],
    "citations": ["do they want citations or sources?", "should I include references?"],
    "diet": ["dietary restrictions?", "any food allergies?"],
    "pronouns": ["what are their pronouns?"],
    "meetings": ["preferred meeting times?", "when can I schedule a meeting?"],
    "theme": ["dark mode or light theme?", "UI theme preference?"],
    "feedback": ["how should I give code review feedback?", "feedback style?"],
    "learning": ["what are they learning at the moment?", "current learning goal?"],
    "charts": ["what chart types do they prefer?", "plotting preferences?"],
    "travel": ["travel preferences for flights?", "seat preference when flying?"],
    # team conventions
    "date_format": ["what date format does the team use?", "team convention for dates?"],
    "branch_naming": ["branch naming convention?", "how do we name git branches?"],
    "commit_style": ["commit message convention?", "how should commit messages look?"],
    "approvals": ["how many approvals does a PR need?", "code review rules before merging?"],
    "deploy_window": ["when can we deploy?", "deploy schedule?"],
    "standup": ["when is standup?", "daily standup details?"],
    "on_call": ["how does the on-call rotation work?", "who is on call?"],
    "sql_naming": ["SQL naming conventions?", "how do we name database tables?"],
    "python_style": ["python code style rules?", "which formatter and linter?"],
    "testing": ["testing policy?", "what are the rules for tests?"],
    "adr": ["where do architecture decisions go?", "where do design docs live?"],
    "tracker": ["which issue tracker do we use?", "what's our issue tracker?"],
    "versioning": ["versioning scheme?", "how do we version releases?"],
    "secrets": ["where do secrets go?", "how do we manage secrets?"],
    "docs_language": ["what language are docs written in?", "language for code comments?"],
    "changelog": ["where does the changelog go?", "how do we write release notes?"],
    "dependencies": ["dependency upgrade policy?", "how do we pin dependencies?"],
    "feature_flags": ["how do we use feature flags?", "feature flag conventions?"],
    "postmortem": ["postmortem process?", "what happens after an incident?"],
    "api_style": ["API style conventions?", "how should REST endpoints be named?"],
    "error_handling": ["error handling conventions?", "how do we handle exceptions?"],
    "holidays": ["company holidays?", "when is the office closed?"],
    # workflow habits
    "pr_size": ["how big are their PRs?", "pull request size habit?"],
    "tests_first": ["do they write tests first?", "TDD habits?"],
    "morning": ["morning routine?", "what do they do at the start of the day?"],
    "focus": ["focus time?", "when is their deep work block?"],
    "git_habit": ["rebase or merge?", "git workflow habits?"],
    "notes_tool": ["where do they keep notes?", "note-taking app?"],
    "debugging": ["how do they debug?", "debugging approach?"],
    "local_env": ["local dev environment setup?", "how do they run services locally?"],
    "migration_checks": ["what checks after a migration?", "data checks after schema changes?"],
    "sql_style": ["how do they write SQL?", "SQL query style?"],
    "notebooks": ["do they use notebooks?", "how do they prototype?"],
    "review_time": ["when do they review PRs?", "code review timing?"],
    "ai_usage": ["how do they use the AI assistant?", "how do they want me to help with drafts?"],
    "status_report": ["when do they send status reports?", "weekly update habit?"],
    "breaks": ["how often do they take breaks?", "break habits?"],
    "terminal_mux": ["terminal setup?", "do they use tmux?"],
    # table facts: {T} table, {C} column words, {R} row, {REF} referenced row
    "money_unit": ["what unit is {C} in for {T}?", "how is {C} stored on {T}?"],
    "currency": ["what currency are {T} in?", "currency of {T}?"],
    "ts_zone": ["what timezone is {C} on {T}?", "is {C} on {T} in UTC?"],
    "status_enum": ["possible values of {C} on {T}?", "what statuses can {T} have?"],
    "soft_delete": ["how are deleted {T} marked?", "soft delete flag on {T}?"],
    "fk": ["how do I join {T} to the {REF}?", "foreign key from {T} to the {REF}?"],
    "pii": ["which {T} columns are PII?", "is {C} on {T} personal data?"],
    "deprecated": ["deprecated columns in {T}?", "can I still use {C} on {T}?"],
    "id_format": ["what format are {T} ids?", "id format for {T}?"],
    "volume": ["how many rows in {T}?", "size of the {T} table?"],
    "milestone": ["what does an empty {C} on {T} mean?", "when is {C} set on {T}?"],
    "owner": ["who owns {T}?", "which team maintains {T}?"],
    "refresh": ["how often is {T} refreshed?", "data freshness of {T}?"],
}
CONCEPT_SHARE = 0.4
LITERAL_TABLE_SHARE = 0.5

QUERY_FRAMES = ["{q}", "{q}", "{q}", "{q}", "{q}", "quick question: {q}", "remind me, {q}",
                "before I reply: {q}", "{q} (for the current task)", "hey, {q}"]


# ----------------------------------------------------------------- checking


def _content(text: str) -> set[str]:
    return set(analyze(text))


def _raw_content(text: str) -> set[str]:
    return {w for w in tokens(text) if w not in STOP_WORDS}


def copies_content(query: str, note_text: str, allowed: set[str] = frozenset()) -> set[str]:
    """Content words the query shares with the note (by stem, or 5-letter prefix)."""
    q_stems = _content(query) - allowed
    n_stems = _content(note_text)
    shared = q_stems & n_stems
    q_raw = {w for w in _raw_content(query) if len(w) >= 5}
    n_raw = {w for w in _raw_content(note_text) if len(w) >= 5}
    for a in q_raw:
        for b in n_raw:
            if a[:5] == b[:5] and a[:5] not in allowed and analyze(a)[0] not in allowed:
                shared.add(a[:5])
    return shared


# ------------------------------------------------------------------ building


def _key_style(style: str, table: str, col: str) -> str:
    if style == "snake":
        return f"{table}.{col}"
    if style == "camel":
        parts = col.split("_")
        return f"{table.capitalize()}.{parts[0]}{''.join(p.capitalize() for p in parts[1:])}"
    return f"tbl_{table}.{col}"  # prefixed


def _fill(rng: random.Random, text: str, fill: dict[str, list[str]]) -> str:
    for slot, choices in fill.items():
        token = "{" + slot + "}"
        while token in text:
            text = text.replace(token, rng.choice(choices), 1)
    return text


def _render(rng: random.Random, template: str, note: dict, literal: bool) -> str:
    if note["topic"] != "table":
        return template
    table = note["_table"] if literal else rng.choice(note["_syns"])
    return (template.replace("{T}", table).replace("{R}", rng.choice(note["_rows"]))
            .replace("{C}", note["_col"]).replace("{REF}", note["_ref"] or "owner"))


def _make_query(rng: random.Random, note: dict):
    """Pick a question for ``note``: (text, "paraphrase"|"concept", names_table) or None.

    A paraphrase may share no content word with the note's key or value (a
    table's own name excepted, when the question names it).  A concept
    question may reuse the key's words but none of the value's.
    """
    key_value = f"{note['key']} {note['value']}"
    table_words = set(analyze(note["_table"])) if note["topic"] == "table" else set()
    use_concept = bool(note["_concept"]) and rng.random() < CONCEPT_SHARE
    kinds = ["concept", "paraphrase"] if use_concept else ["paraphrase", "concept"]
    for kind in kinds:
        templates = note["_concept"] if kind == "concept" else note["_paraphrases"]
        templates = templates[:]
        rng.shuffle(templates)
        share = LITERAL_TABLE_SHARE if kind == "concept" else 0.25
        literal = note["topic"] == "table" and rng.random() < share
        for template in templates:
            q = _render(rng, template, note, literal)
            names_table = literal and "{T}" in template
            allowed = (table_words if names_table else set()) | {"tabl"}
            if kind == "paraphrase" and copies_content(q, key_value, allowed):
                continue
            if kind == "concept" and copies_content(q, note["value"], allowed):
                continue
            frame = rng.choice(QUERY_FRAMES)
            framed = frame.replace("{q}", q if frame.startswith("{q}") else q[0].lower() + q[1:])
            if copies_content(framed, key_value, allowed) - copies_content(q, key_value, allowed):
                framed = q  # the frame itself must not add shared words
            if rng.random() < 0.15:
                framed = framed.rstrip("?")
            if rng.random() < 0.1:
                framed = framed.lower()
            return framed, kind, names_table
    return None


def build(seed: int, n_users: int, notes_per_user: int = 50, queries_per_user: int = 10):
    rng = random.Random(seed)
    notes: list[dict] = []
    queries: list[dict] = []
    users = [f"u{i:03d}" for i in range(1, n_users + 1)]
    shuffled = users[:]
    rng.shuffle(shuffled)
    split_of = {u: ("dev" if i < n_users // 2 else "heldout") for i, u in enumerate(shuffled)}
    note_seq = 0
    query_seq = 0

    for user in users:
        user_notes: list[dict] = []

        def add(key: str, value: str, topic: str, facet: str, paraphrases: list[str],
                user_notes=user_notes, user=user, **extra):
            nonlocal note_seq
            note_seq += 1
            user_notes.append(
                {"id": f"n{note_seq:05d}", "user_id": user, "key": key, "value": value, "topic": topic,
                 "facet": facet, "_paraphrases": paraphrases, "_concept": CONCEPT.get(facet, []), **extra}
            )

        n_tables = rng.choice([4, 5])
        n_table_notes = rng.randint(14, 18)
        n_pref = rng.randint(10, 13)
        n_team = rng.randint(9, 11)
        n_work = notes_per_user - n_pref - n_team - n_table_notes

        for group, n in ((PREFERENCES, n_pref), (TEAM, n_team), (WORKFLOW, n_work)):
            for facet in rng.sample(group, min(n, len(group))):
                key = rng.choice(facet.keys)
                value = _fill(rng, rng.choice(facet.values), facet.fill)
                add(key, value, facet.topic, facet.name, facet.queries)

        # the user's schema
        style = rng.choice(["snake", "snake", "camel", "prefixed"])
        tables = rng.sample(sorted(TABLES), n_tables)
        slots = [(t, fact) for t in tables for fact in TABLE_FACTS]
        rng.shuffle(slots)
        used_cols: set[tuple[str, str]] = set()
        per_table: Counter = Counter()
        made = 0
        fk_target = {"customer_id": "customers", "account_id": "accounts", "owner_id": "employees",
                     "product_id": "products"}
        for t, fact in slots:
            if made >= n_table_notes:
                break
            if per_table[t] >= 5:
                continue
            info = TABLES[t]
            cols, values, qs = TABLE_FACTS[fact]
            if fact in ("money_unit", "currency") and not info["money"]:
                continue
            if fact == "milestone":
                col, value, m_q = info["milestone"]
                qs = [m_q]
            else:
                col = rng.choice(cols)
                value = rng.choice(values)
            value = value.replace("{STATUS}", rng.choice(info["status"])).replace("{PFX}", t[:3])
            if (t, col) in used_cols:
                continue
            ref = ""
            if fact == "fk":
                if fk_target[col] == t:
                    continue
                value = value.replace("{REFT}", fk_target[col])
                ref = REF_TABLES[fk_target[col]]
            used_cols.add((t, col))
            per_table[t] += 1
            made += 1
            add(_key_style(style, t, col), value, "table", fact, qs,
                _table=t, _syns=info["syn"], _rows=info["rows"], _col=col, _ref=ref)

        # queries: ~10 per user spread over topics, targets unique within the user
        by_topic: dict[str, list[dict]] = {}
        for n in user_notes:
            by_topic.setdefault(n["topic"], []).append(n)
        want = {"preference": 3, "team": 2, "table": 3, "workflow": 2}
        for _ in range(queries_per_user - sum(want.values())):
            want[rng.choice(list(want))] += 1
        for topic, k in want.items():
            cands = by_topic.get(topic, [])[:]
            rng.shuffle(cands)
            taken = 0
            for note in cands:
                if taken >= k:
                    break
                made_query = _make_query(rng, note)
                if made_query is None:
                    continue
                text, style_used, literal = made_query
                query_seq += 1
                queries.append(
                    {"id": f"q{query_seq:05d}", "user_id": user, "query": text, "target_id": note["id"],
                     "topic": topic, "facet": note["facet"], "style": style_used,
                     "names_table": literal, "split": split_of[user]}
                )
                taken += 1

        for n in user_notes:
            notes.append({k: v for k, v in n.items() if not k.startswith("_")})
    return notes, queries


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--users", type=int, default=120)
    ap.add_argument("--out", type=Path, default=DATA_DIR)
    args = ap.parse_args(argv)
    notes, queries = build(args.seed, args.users)
    _write_jsonl(args.out / NOTES_PATH.name, notes)
    _write_jsonl(args.out / QUERIES_PATH.name, queries)

    by_id = {n["id"]: n for n in notes}
    users = Counter(n["user_id"] for n in notes)
    overlap = Counter()
    value_overlap = 0
    for q in queries:
        n = by_id[q["target_id"]]
        shared = _content(q["query"]) & _content(f"{n['key']} {n['value']}")
        overlap[len(shared)] += 1
        value_overlap += bool(copies_content(q["query"], n["value"], {"tabl"} | set(analyze(n["key"]))))
    print(f"notes: {len(notes)} over {len(users)} users ({min(users.values())}-{max(users.values())} each)")
    print(f"queries: {len(queries)}  split: {dict(Counter(q['split'] for q in queries))}")
    print(f"topics: {dict(Counter(q['topic'] for q in queries))}")
    print(f"query styles: {dict(Counter(q['style'] for q in queries))}; "
          f"naming their table: {sum(q['names_table'] for q in queries)}")
    print(f"content stems shared by query and target note (key or value): {dict(sorted(overlap.items()))}")
    print(f"queries sharing a word with the note's value other than key words: {value_overlap}")
    print(f"distinct query texts: {len({q['query'] for q in queries})}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
