"""The one model-access layer, shared by generation and evaluation.

- `settings`: LMSettings (model, endpoint, sampling, concurrency, total timeout, retries) and
  where a model name is served (an OpenAI-compatible URL, or LiteLLM for other providers),
  with the key read from the environment.
- `reply`: Reply (an answer, or why there is none) and Call (one request of a batch).
- `client`: LMClient: one chat completion or many, concurrently; retries with backoff, jitter
  and Retry-After; a stop after consecutive endpoint failures; the call cache; accounting.
- `transport`: the HTTP and LiteLLM transports, with a total deadline per request.
- `cache`: the persistent call cache (SQLite), complete readable answers only.
- `usage`: calls, cache hits, retries, errors by kind, tokens and cost.
- `secrets`: the redaction every artifact goes through.
- `fake`: a fake model for tests (scripted or rule-based, misbehaving like real ones), usable
  as a transport of LMClient and as a DSPy engine.
- `dspy_bridge`: a `dspy.LM` whose calls go through an LMClient.
"""
