#!/usr/bin/python3
"""Builds the kit's tiny transformer fixtures and their reference outputs.

Two 2-layer BERT models with random weights (seeded), written as Hugging Face model
directories (config.json, tokenizer.json, tokenizer_config.json, ONNX weights):

  cross-encoder/  BertForSequenceClassification, 1 logit  (weights in onnx/model.onnx)
  qa/             BertForQuestionAnswering, start/end logits (weights in model.onnx)

plus reference.json: token ids, logits and top-k answer spans computed here by an
implementation independent of the kit (PyTorch for the network, and a WordPiece
tokenizer and span decoder written in this file). The kit's tests must reproduce them
to 1e-4 on every backend.

Rerun (Debian 12: apt-get install -y python3-torch python3-onnx):
  /usr/bin/python3 tools/tiny-model/make.py tests/fixtures/tiny-model
The output is deterministic for a given torch version except for ONNX file bytes.
"""
import json
import math
import os
import sys
import unicodedata

import torch

SEED = 20240601
HIDDEN = 32
LAYERS = 2
HEADS = 4
INTERMEDIATE = 64
MAX_POSITIONS = 128
LN_EPS = 1e-12

# ---------------------------------------------------------------- fixture texts
CE_PAIRS = [
    ("how are glacier caves formed?",
     "A glacier cave is a cave formed within the ice of a glacier."),
    ("how are glacier caves formed?", "The ice facade is approximately 60 m high."),
    ("Who wrote Hamlet?", "Hamlet is a tragedy written by William Shakespeare."),
    ("Who wrote Hamlet?", "It is Shakespeare's longest play, with 29,551 words."),
    ("Where is Zürich?", "Zürich is the largest city in Switzerland ☃."),
    ("what is the capital of france",
     " ".join(["Paris is the capital and most populous city of France, with an estimated "
               "population of 2,102,650 residents in January 2023."] * 6)),
    ("ما هي مصارف الزكاة؟", "إنما الصدقات للفقراء والمساكين والعاملين عليها"),
]

QA_RECORDS = [
    ("who wrote hamlet?",
     "Hamlet is a tragedy written by William Shakespeare sometime between 1599 and 1601. "
     "It is Shakespeare's longest play, with 29,551 words. Set in Denmark, the play depicts "
     "Prince Hamlet and his attempts to exact revenge against his uncle, Claudius, who has "
     "murdered Hamlet's father in order to seize his throne and marry Hamlet's mother."),
    ("Where is Zürich?", "Zürich is the largest city in Switzerland and the capital of the "
     "canton of Zürich. It is located in north-central Switzerland."),
    ("ما هي مصارف الزكاة؟",
     "إنما الصدقات للفقراء والمساكين والعاملين عليها والمؤلفة قلوبهم وفي الرقاب والغارمين وفي "
     "سبيل الله وابن السبيل فريضة من الله والله عليم حكيم. ومنهم الذين يؤذون النبي ويقولون هو "
     "أذن قل أذن خير لكم يؤمن بالله ويؤمن للمؤمنين ورحمة للذين آمنوا منكم."),
]

QA_SETTINGS = {"maxLength": 48, "docStride": 16, "maxAnswerTokens": 8, "topK": 5}
CE_MAX_LENGTH = 128
UNKNOWN_CHARS = {"☃"}  # deliberately left out of the vocabulary: becomes [UNK]


# ---------------------------------------------------------------- tokenizer
def is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def is_control(ch):
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf")


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text):
    """BERT's basic tokenizer, keeping each word's [start, end) in the original text."""
    out = []
    cur = None
    for i, ch in enumerate(text):
        if ord(ch) == 0 or ord(ch) == 0xFFFD or is_control(ch) or is_whitespace(ch):
            if cur:
                out.append(cur)
            cur = None
        elif is_punctuation(ch):
            if cur:
                out.append(cur)
            out.append([i, i + 1])
            cur = None
        else:
            if cur:
                cur[1] = i + 1
            else:
                cur = [i, i + 1]
    if cur:
        out.append(cur)
    return [(s, e, text[s:e]) for s, e in out]


def normalize_word(w):
    w = w.lower()
    w = unicodedata.normalize("NFD", w)
    return "".join(c for c in w if unicodedata.category(c) != "Mn")


def wordpiece(word, vocab):
    """Greedy longest-match-first WordPiece; returns the pieces or ['[UNK]']."""
    if len(word) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            sub = word[start:end]
            if start > 0:
                sub = "##" + sub
            if sub in vocab:
                found = sub
                break
            end -= 1
        if found is None:
            return ["[UNK]"]
        pieces.append(found)
        start = end
    return pieces


def tokenize_with_offsets(text, vocab):
    """Token strings with [start, end) offsets into `text`."""
    out = []
    for s, e, w in basic_tokens(text):
        norm = normalize_word(w)
        if not norm:
            continue
        pieces = wordpiece(norm, vocab)
        if pieces == ["[UNK]"] or len(norm) != len(w):
            out.extend((p, s, e) for p in pieces)
            continue
        at = s
        for p in pieces:
            n = len(p) - 2 if p.startswith("##") else len(p)
            out.append((p, at, at + n))
            at += n
    return out


def build_vocab():
    texts = [t for pair in CE_PAIRS for t in pair] + [t for pair in QA_RECORDS for t in pair]
    words, chars = {}, set()
    for t in texts:
        for _, _, w in basic_tokens(t):
            n = normalize_word(w)
            words[n] = words.get(n, 0) + 1
            chars.update(n)
    chars -= UNKNOWN_CHARS
    for c in "abcdefghijklmnopqrstuvwxyz0123456789":
        chars.add(c)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    # frequent whole words only, so that rarer ones split into ## pieces
    kept = sorted(w for w, n in words.items() if n >= 2 and len(w) > 1 and
                  not (set(w) & UNKNOWN_CHARS))
    singles = sorted(chars)
    pieces = ["##" + c for c in singles] + ["##s", "##ed", "##ing", "##er"]
    vocab = specials + singles + pieces + kept
    return {t: i for i, t in enumerate(dict.fromkeys(vocab))}


def tokenizer_json(vocab):
    """tokenizer.json in the Hugging Face `tokenizers` format for a BERT WordPiece."""
    def special(i, t):
        return {"id": i, "content": t, "single_word": False, "lstrip": False,
                "rstrip": False, "normalized": False, "special": True}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [special(vocab[t], t) for t in
                         ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]],
        "normalizer": {"type": "BertNormalizer", "clean_text": True,
                       "handle_chinese_chars": True, "strip_accents": None,
                       "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [vocab["[CLS]"]], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [vocab["[SEP]"]], "tokens": ["[SEP]"]},
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                  "vocab": vocab},
    }


def tokenizer_config():
    return {"do_lower_case": True, "model_max_length": MAX_POSITIONS,
            "tokenizer_class": "BertTokenizer", "cls_token": "[CLS]", "sep_token": "[SEP]",
            "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]"}


def encode_pair(q, c, vocab, max_length):
    """[CLS] q [SEP] c [SEP], longest-first truncation (ties cut the second text)."""
    a = [vocab[t] for t, _, _ in tokenize_with_offsets(q, vocab)]
    b = [vocab[t] for t, _, _ in tokenize_with_offsets(c, vocab)]
    while len(a) + len(b) > max_length - 3:
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    ids = [vocab["[CLS]"]] + a + [vocab["[SEP]"]] + b + [vocab["[SEP]"]]
    types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    return ids, types


# ---------------------------------------------------------------- model
class Layer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(HIDDEN, HIDDEN)
        self.k = torch.nn.Linear(HIDDEN, HIDDEN)
        self.v = torch.nn.Linear(HIDDEN, HIDDEN)
        self.o = torch.nn.Linear(HIDDEN, HIDDEN)
        self.ln1 = torch.nn.LayerNorm(HIDDEN, eps=LN_EPS)
        self.up = torch.nn.Linear(HIDDEN, INTERMEDIATE)
        self.down = torch.nn.Linear(INTERMEDIATE, HIDDEN)
        self.ln2 = torch.nn.LayerNorm(HIDDEN, eps=LN_EPS)

    def forward(self, x, bias):
        b, t, _ = x.shape
        d = HIDDEN // HEADS

        def heads(y):
            return y.view(b, t, HEADS, d).transpose(1, 2)
        att = heads(self.q(x)) @ heads(self.k(x)).transpose(-1, -2) / math.sqrt(d) + bias
        ctx = (att.softmax(-1) @ heads(self.v(x))).transpose(1, 2).reshape(b, t, HIDDEN)
        x = self.ln1(x + self.o(ctx))
        h = self.up(x)
        h = 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))
        return self.ln2(x + self.down(h))


class TinyBert(torch.nn.Module):
    def __init__(self, vocab_size, head):
        super().__init__()
        self.word = torch.nn.Embedding(vocab_size, HIDDEN)
        self.pos = torch.nn.Embedding(MAX_POSITIONS, HIDDEN)
        self.typ = torch.nn.Embedding(2, HIDDEN)
        self.ln = torch.nn.LayerNorm(HIDDEN, eps=LN_EPS)
        self.layers = torch.nn.ModuleList([Layer() for _ in range(LAYERS)])
        self.head = head
        if head == "cls":
            self.pooler = torch.nn.Linear(HIDDEN, HIDDEN)
            self.out = torch.nn.Linear(HIDDEN, 1)
        else:
            self.out = torch.nn.Linear(HIDDEN, 2)

    def forward(self, input_ids, attention_mask, token_type_ids):
        t = input_ids.shape[1]
        pos = torch.arange(t, dtype=torch.long).unsqueeze(0)
        x = self.ln(self.word(input_ids) + self.pos(pos) + self.typ(token_type_ids))
        bias = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -1e9
        for layer in self.layers:
            x = layer(x, bias)
        if self.head == "cls":
            return self.out(torch.tanh(self.pooler(x[:, 0])))
        se = self.out(x)
        return se[..., 0], se[..., 1]


def init_weights(model, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.randn(p.shape, generator=g) * 0.1)
            elif "ln" in name:
                p.copy_(1.0 + torch.randn(p.shape, generator=g) * 0.1)
            else:
                p.copy_(torch.randn(p.shape, generator=g) * 0.4)


def export(model, path, outputs):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ids = torch.ones((2, 7), dtype=torch.long)
    axes = {"input_ids": {0: "batch", 1: "sequence"},
            "attention_mask": {0: "batch", 1: "sequence"},
            "token_type_ids": {0: "batch", 1: "sequence"}}
    for o in outputs:
        axes[o] = {0: "batch"} if o == "logits" else {0: "batch", 1: "sequence"}
    torch.onnx.export(model, (ids, ids, torch.zeros_like(ids)), path,
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=outputs, dynamic_axes=axes, opset_version=14,
                      do_constant_folding=True)


def config(vocab, arch, extra):
    c = {"architectures": [arch], "model_type": "bert", "vocab_size": len(vocab),
         "hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS,
         "intermediate_size": INTERMEDIATE, "hidden_act": "gelu",
         "max_position_embeddings": MAX_POSITIONS, "type_vocab_size": 2,
         "layer_norm_eps": LN_EPS, "pad_token_id": 0}
    c.update(extra)
    return c


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")


# ---------------------------------------------------------------- spans
def qa_spans(model, vocab, question, passage, s):
    """Top-k spans: every window of [CLS] q [SEP] window [SEP], every (start, end) in the
    window with end - start < maxAnswerTokens, score = start logit + end logit, mapped to
    characters; the best score per character span; sorted by score, start, end."""
    q = [vocab[t] for t, _, _ in tokenize_with_offsets(question, vocab)]
    p = tokenize_with_offsets(passage, vocab)
    win = s["maxLength"] - len(q) - 3
    best = {}
    start = 0
    windows = 0
    while True:
        end = min(start + win, len(p))
        chunk = p[start:end]
        ids = ([vocab["[CLS]"]] + q + [vocab["[SEP]"]] + [vocab[t] for t, _, _ in chunk] +
               [vocab["[SEP]"]])
        types = [0] * (len(q) + 2) + [1] * (len(chunk) + 1)
        t = torch.tensor([ids])
        with torch.no_grad():
            sl, el = model(t, torch.ones_like(t), torch.tensor([types]))
        off = len(q) + 2
        for i in range(len(chunk)):
            for j in range(i, min(i + s["maxAnswerTokens"], len(chunk))):
                score = float(sl[0, off + i] + el[0, off + j])
                key = (chunk[i][1], chunk[j][2])
                if key not in best or score > best[key]:
                    best[key] = score
        windows += 1
        if end == len(p):
            break
        start = end - s["docStride"]
    ranked = sorted(best.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
    top = ranked[: s["topK"]]
    # the reference is only useful if ranks cannot flip at the test tolerance
    for a, b in zip(ranked, ranked[1: s["topK"] + 1]):
        assert a[1] - b[1] > 1e-3, f"near tie in the reference spans: {a} {b}"
    return windows, [{"answer": passage[a:b], "start": a, "end": b, "score": sc}
                     for (a, b), sc in top]


def main(out_dir):
    torch.manual_seed(SEED)
    vocab = build_vocab()
    tok = tokenizer_json(vocab)

    ce = TinyBert(len(vocab), "cls").eval()
    init_weights(ce, SEED)
    ce_dir = os.path.join(out_dir, "cross-encoder")
    export(ce, os.path.join(ce_dir, "onnx", "model.onnx"), ["logits"])
    write_json(os.path.join(ce_dir, "config.json"), config(
        vocab, "BertForSequenceClassification",
        {"num_labels": 1, "id2label": {"0": "LABEL_0"}, "label2id": {"LABEL_0": 0}}))
    write_json(os.path.join(ce_dir, "tokenizer.json"), tok)
    write_json(os.path.join(ce_dir, "tokenizer_config.json"), tokenizer_config())

    qa = TinyBert(len(vocab), "qa").eval()
    init_weights(qa, SEED + 1)
    qa_dir = os.path.join(out_dir, "qa")
    export(qa, os.path.join(qa_dir, "model.onnx"), ["start_logits", "end_logits"])
    write_json(os.path.join(qa_dir, "config.json"),
               config(vocab, "BertForQuestionAnswering", {}))
    write_json(os.path.join(qa_dir, "tokenizer.json"), tok)
    write_json(os.path.join(qa_dir, "tokenizer_config.json"), tokenizer_config())

    pairs = []
    for q, c in CE_PAIRS:
        ids, types = encode_pair(q, c, vocab, CE_MAX_LENGTH)
        t = torch.tensor([ids])
        with torch.no_grad():
            logit = float(ce(t, torch.ones_like(t), torch.tensor([types]))[0, 0])
        pairs.append({"question": q, "candidate": c, "input_ids": ids,
                      "token_type_ids": types, "logit": logit})
    records = []
    for i, (q, passage) in enumerate(QA_RECORDS):
        windows, spans = qa_spans(qa, vocab, q, passage, QA_SETTINGS)
        records.append({"id": f"r{i}", "question": q, "passage": passage,
                        "windows": windows, "spans": spans})
    write_json(os.path.join(out_dir, "reference.json"), {
        "generator": "tools/tiny-model/make.py",
        "torch": torch.__version__,
        "crossEncoder": {"maxLength": CE_MAX_LENGTH, "pairs": pairs},
        "qa": {"settings": QA_SETTINGS, "records": records},
    })
    print(f"vocab {len(vocab)} tokens; wrote {out_dir}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/tiny-model")
