"""A LangGraph agent with long-term memory, runnable offline: recall -> agent -> remember.

    python examples/langgraph_agent.py --db /tmp/agent.db     # first run: no memories, the user corrects it
    python examples/langgraph_agent.py --db /tmp/agent.db     # second run: it recalls the correction

A scripted chat model stands in for the LLM (swap in ChatOpenAI or any chat model); the memory is the in-process
`hindsight.Memory`, or a running server with `--url http://127.0.0.1:8765/mcp` (through ResilientClient).
Needs the langgraph extra, from the checkout: scripts/setup.sh langgraph (or .venv/bin/pip install -e ".[langgraph]";
hindsight is not on PyPI, and the PyPI package named "hindsight" is another project).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from hindsight.integrations.langgraph import retrieve_memory_node, store_memory_node

TASK = "Write the CI install step for the payments service."


class ScriptedChatModel(BaseChatModel):
    """Stands in for the LLM: uses pnpm if its context mentions pnpm, else npm (what a model would guess)."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> ChatResult:
        context = " ".join(str(m.content) for m in messages if isinstance(m, SystemMessage))
        tool = "pnpm" if "pnpm" in context else "npm"
        reply = f"run: {tool} install --frozen-lockfile" if tool == "pnpm" else "run: npm install"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])


class AgentState(TypedDict, total=False):
    messages: Annotated[list[BaseMessage], add_messages]
    task: str
    memories: list[dict[str, Any]]
    memory_context: str
    outcome: dict[str, Any]
    user_feedback: float
    memory_write: dict[str, Any]


def build_graph(memory: Any, model: BaseChatModel) -> Any:
    def agent(state: AgentState) -> AgentState:
        system = "You write CI configuration.\n" + state.get("memory_context", "")
        answer = model.invoke([SystemMessage(content=system), HumanMessage(content=state["task"])])
        # the scripted user: this team uses pnpm; an npm answer is a failure they correct
        ok = "pnpm" in str(answer.content)
        outcome = ({"success": 1.0, "summary": f"accepted: {answer.content}", "steps": [str(answer.content)],
                    "context": "payments service CI"} if ok else
                   {"success": 0.0, "error": f"the user rejected '{answer.content}': this repo uses pnpm, not npm",
                    "avoid_by": "use pnpm install --frozen-lockfile in CI", "context": "payments service CI"})
        return {"messages": [answer], "outcome": outcome, "user_feedback": 1.0 if ok else 0.0}

    graph = StateGraph(AgentState)
    graph.add_node("recall", retrieve_memory_node(memory, top_k=3))
    graph.add_node("agent", agent)
    graph.add_node("remember", store_memory_node(memory))
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "agent")
    graph.add_edge("agent", "remember")
    graph.add_edge("remember", END)
    return graph.compile()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=Path(tempfile.gettempdir()) / "hindsight-langgraph-example.db")
    parser.add_argument("--url", help="use a running hindsight HTTP server instead of the in-process store")
    args = parser.parse_args()
    if args.url:
        from hindsight.client import ResilientClient

        memory: Any = ResilientClient(args.url, args.db.with_suffix(".queue.db"))
    else:
        from hindsight import Memory

        memory = Memory(args.db)
    try:
        state = build_graph(memory, ScriptedChatModel()).invoke({"task": TASK, "messages": [HumanMessage(TASK)]})
    finally:
        memory.close()
    print(f"memories recalled: {len(state['memories'])}")
    for line in state["memory_context"].splitlines()[1:]:
        print(f"  {line}")
    print(f"agent answered: {state['messages'][-1].content}")
    write = state["memory_write"]
    print(f"stored: {write.get('memory_id')} ({'success' if state['outcome']['success'] else 'failure'}, "
          f"{write.get('action', 'queued' if write.get('queued') else '?')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
