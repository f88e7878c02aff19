from factory.records import (
    Call,
    Chain,
    Ref,
    Value,
    content_hash,
    parse_shape,
    shape_of,
    type_accepts,
    value_matches_type,
)


def chain_of(edges, n):
    calls = []
    for j in range(n):
        args = {f"p{i}": Ref(ref=f"d{i}") for i, jj in edges if jj == j}
        args["x"] = Value(value=j)
        calls.append(Call(tool=f"t{j}", arguments=args, outputs=[f"d{j}"]))
    return Chain(calls=calls)


def test_chain_json_round_trip_keeps_references_typed():
    chain = chain_of([(0, 1), (0, 2), (1, 2)], 3)
    again = Chain.model_validate_json(chain.to_json())
    assert again == chain
    assert isinstance(again.calls[2].arguments["p1"], Ref)
    assert isinstance(again.calls[2].arguments["x"], Value)


def test_a_literal_that_looks_like_a_reference_stays_a_literal():
    call = Call.model_validate({"tool": "t", "arguments": {"a": {"value": "data0"}, "b": {"ref": "data0"}}})
    assert call.arguments["a"] == Value(value="data0") and call.arguments["b"] == Ref(ref="data0")


def test_depth_shape_and_sinks_follow_nestools_counting():
    diamond = chain_of([(0, 1), (0, 2), (1, 3), (2, 3)], 4)
    assert diamond.depth() == 3 and diamond.shape() == "4:1>2,1>3,2>4,3>4" and diamond.sinks() == [3]
    independent = chain_of([], 3)
    assert independent.depth() == 1 and independent.shape() == "3:" and independent.sinks() == [0, 1, 2]
    assert parse_shape("3:1>2,2>3") == (3, [(0, 1), (1, 2)])
    assert shape_of(*parse_shape("4:1>2,1>3,1>4")) == "4:1>2,1>3,1>4"


def test_type_rules():
    assert type_accepts("float", "int") and not type_accepts("int", "float")
    assert type_accepts("list", "list[str]") and not type_accepts("str", "list[str]")
    assert value_matches_type(3, "float") and not value_matches_type(True, "int")
    assert value_matches_type(["a"], "list[str]") and not value_matches_type(["a", 1], "list[str]")
    assert not value_matches_type("3", "int")


def test_content_hash_ignores_key_order():
    assert content_hash({"a": 1, "b": [1, 2]}) == content_hash({"b": [1, 2], "a": 1})
    assert content_hash({"a": 1}) != content_hash({"a": 2})


def test_a_sample_writes_what_its_json_dump_holds():
    """A sample of plain values is written from its fields: the same text as its JSON dump,
    which turns a NaN into null and an int score into a float, keeps steps and user checks."""
    import warnings

    from factory.records import SampleResult, StepLabel, UserCheck, stable_json

    base = {"instance_id": "a", "mode": "static", "agent": "noisy:0.3", "trial": 0, "prompt": None, "depth": 2,
            "shape": "2:1>2", "categories": ["nested"], "errors": ["order"], "steps": [], "user": None}
    samples = [
        SampleResult.model_construct(**base, output='[{"api_name": "f"}]\u2028é', scores={"format": 1.0, "tree": 0.0}),
        SampleResult.model_construct(**base, output=-1, scores={}),
        SampleResult.model_construct(**{**base, "prompt": "the prompt"}, output=None, scores={"api_gold": 2.0}),
        SampleResult.model_construct(**base, output=float("nan"), scores={"format": 1.0}),
        SampleResult.model_construct(**base, output="x", scores={"format": float("inf"), "tree": 1}),
        SampleResult.model_construct(**base, output={"text": "x"}, scores={"format": 1.0}),
        SampleResult(**{**base, "mode": "interactive", "prompt": [{"role": "user", "content": "hi"}],
                        "steps": [StepLabel(message=1, kind="answer", label="advances")], "user": UserCheck(turns=1)},
                     output=[{"role": "assistant", "content": "done"}], scores={"success": 1.0}),
    ]
    with warnings.catch_warnings():  # a model_construct'ed int score: pydantic warns as it dumps it
        warnings.simplefilter("ignore")
        assert [s.to_json() for s in samples] == [stable_json(s.model_dump(mode="json")) for s in samples]
