"""A stand-in for pytrec_eval (0.5), enough for the Qur'an QA 2023 Task A scorer.

pytrec_eval cannot be installed on the kit's machines. It wraps trec_eval 9.0.x's own code, so
this module runs trec_eval 9.0.8 instead: `RelevanceEvaluator(qrels, measures).evaluate(run)`
writes the two dicts to temporary files, runs `trec_eval -q -m map_cut.10 -m recip_rank` and
returns, as pytrec_eval does, one dict of values per query of the run that the qrels dict has,
in the run dict's order (a query with no judgment or no result scores 0, as in pytrec_eval).
The binary is `$QQA23_TREC_EVAL`: the test builds trec_eval 9.0.8 with its values printed in
full (`%.17g` instead of `%6.4f`), since pytrec_eval hands Python the doubles themselves.

Kept from pytrec_eval (src/pytrec_eval.cpp, py/__init__.py): the measure names (`map_cut_10`
is trec_eval's `map_cut.10`), the type checks (string keys; relevance a Python int; a score a
Python float or int, so a string is refused), `evaluate({})` returning `{}`, and the queries of
the run the qrels lack skipped. Scores go to trec_eval as `repr(float)`, which trec_eval's
`atof` reads back to the same double before storing it as a 32-bit float, as pytrec_eval's
`(float)` cast does. Ids with white space cannot be written to trec_eval's files: refused (the
kit refuses them too).
"""
import os
import subprocess
import tempfile

__version__ = "0.5-stand-in"

_MEASURES = {"map_cut_10": "map_cut.10", "recip_rank": "recip_rank"}


def _check_id(value, what):
    if not isinstance(value, str):
        raise TypeError(f"Expected string as {what}.")
    if value == "" or any(c.isspace() for c in value):
        raise ValueError(f"stand-in: {what} {value!r} cannot be written to trec_eval's files")


class RelevanceEvaluator:
    def __init__(self, query_relevance, measures, relevance_level=1, judged_docs_only_flag=False):
        if not isinstance(query_relevance, dict):
            raise TypeError("Argument query_relevance should be of type dictionary.")
        if not isinstance(measures, (set, list, tuple)):
            raise TypeError("Argument measures should be of type set.")
        unknown = [m for m in measures if m not in _MEASURES]
        if unknown:
            raise ValueError(f"stand-in: unsupported measure(s) {unknown}")
        if relevance_level != 1 or judged_docs_only_flag:
            raise ValueError("stand-in: only relevance_level=1 without judged_docs_only")
        for qid, docs in query_relevance.items():
            _check_id(qid, "key")
            if not isinstance(docs, dict):
                raise TypeError("Expected dictionary as value.")
            for docid, rel in docs.items():
                _check_id(docid, "document id")
                if not isinstance(rel, int):
                    raise TypeError("Expected relevance to be integer.")
        self._qrels = query_relevance
        self._measures = list(measures)

    def evaluate(self, scores):
        if not scores:
            return {}
        if not isinstance(scores, dict):
            raise TypeError("Argument object scores should be of type dictionary.")
        for qid, docs in scores.items():
            _check_id(qid, "key")
            if not isinstance(docs, dict):
                raise TypeError("Expected dictionary as value.")
            for docid, score in docs.items():
                _check_id(docid, "document id")
                if not isinstance(score, (float, int)):
                    raise TypeError("Expected matching score to be int, long or float.")
        # The run's queries that have a qrels entry, in the run dict's order (pytrec_eval's).
        asked = [q for q in scores if q in self._qrels]
        if not asked:
            return {}
        # A query with no judgment or no result cannot be written to trec_eval's files; pytrec_eval
        # scores it 0 on both measures (no relevant document, or none retrieved).
        full = [q for q in asked if self._qrels[q] and scores[q]]
        if "all" in full:
            raise ValueError("stand-in: a query named 'all' collides with trec_eval's summary")
        values = {}
        if full:
            values = self._trec_eval(full, scores)
        zeros = {m: 0.0 for m in self._measures}
        missing = [q for q in full if q not in values]
        if missing:
            raise RuntimeError(f"stand-in: trec_eval printed no values for {missing}")
        return {q: values[q] if q in values else dict(zeros) for q in asked}

    def _trec_eval(self, queries, scores):
        with tempfile.TemporaryDirectory() as tmp:
            qrels_path = os.path.join(tmp, "qrels")
            run_path = os.path.join(tmp, "run")
            with open(qrels_path, "w", encoding="utf-8") as f:
                for qid in queries:
                    for docid, rel in self._qrels[qid].items():
                        f.write(f"{qid} 0 {docid} {rel}\n")
            with open(run_path, "w", encoding="utf-8") as f:
                for qid in queries:
                    for docid, score in scores[qid].items():
                        f.write(f"{qid} Q0 {docid} 0 {float(score)!r} standin\n")
            args = [os.environ["QQA23_TREC_EVAL"], "-q"]
            for m in self._measures:
                args += ["-m", _MEASURES[m]]
            out = subprocess.run(args + [qrels_path, run_path], capture_output=True,
                                 text=True, check=True).stdout
        values = {}
        for line in out.splitlines():
            name, qid, value = (part.strip() for part in line.split("\t"))
            if qid != "all":
                values.setdefault(qid, {})[name] = float(value)
        return values
