import pytest

from factory.chains.code import ChainParseError, parse_chain, render_chain
from factory.records import Call, Chain, Output, Param, Ref, ToolSpec, Value

CHAIN = Chain(calls=[
    Call(tool="get_top_selling_wine", arguments={"location": Value(value="California"), "date": Value(value="2025-05-08")},
         outputs=["data0", "data1"]),
    Call(tool="get_product_origin", arguments={"product": Ref(ref="data0")}, outputs=["data2"]),
    Call(tool="get_export_quantity", arguments={"location": Ref(ref="data2"), "date": Value(value="2025-05-08"),
                                                "product": Ref(ref="data0"), "strict": Value(value=True)}, outputs=["data3"]),
])


def test_render_and_parse_round_trip():
    code = render_chain(CHAIN)
    assert code.splitlines()[1] == "data2 = get_product_origin(product=data0)"
    assert parse_chain(code) == CHAIN


def test_parses_model_style_code_with_main_and_positional_arguments():
    spec = ToolSpec(name="f", description="F.", parameters=[Param(name="a", type="str"), Param(name="b", type="int")],
                    returns=[Output(name="o", type="str")])
    code = '''
def main():
    """Solve it."""
    data0 = f("x", 2)
    data1 = f(a=data0, b=3)
    return data1
'''
    chain = parse_chain(code, {"f": spec})
    assert chain.calls[0].arguments == {"a": Value(value="x"), "b": Value(value=2)}
    assert chain.calls[1].arguments["a"] == Ref(ref="data0")


@pytest.mark.parametrize(
    "code, message",
    [
        ("data0 = f(a=", "not valid Python"),
        ("data0 = f(a=data9)", "used before any call binds it"),
        ("data0 = f(a=open('x'))", "neither a literal nor an output"),
        ("x = 1 + 2", "expected a call of a tool"),
        ("data0 = f('x')", "positional arguments to f cannot be named"),
        ("data0 = f(**kw)", "**kwargs"),
        ("", "no tool calls"),
    ],
)
def test_malformed_chain_code_is_reported_with_evidence(code, message):
    with pytest.raises(ChainParseError) as err:
        parse_chain(code)
    assert message in str(err.value)
