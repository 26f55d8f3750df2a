"""Reads a decision JSON of schema 5 back into one object per candidate
and per reason, as a program that reads the format would (docs/formats.md,
"The decision JSON"): a row's members are named by its table's NAME_fields,
the shared parts are looked up by index.

  reasons(doc)     -> list of dicts (None where a budget reason is merged)
  candidates(doc)  -> list of dicts: offer, class, status, gpu_model, cards,
                      capacity_per_card, lower_bound_per_card, need_per_card
                      ({bytes, provenance} or None), requirements (every
                      requirement, the budget's included, as reason
                      indices), price_per_hour {on_demand, interruptible}
                      (each {micro_per_hour, plan, source} or None),
                      total_cost, rests_on_synthetic
"""

_STATUS = {"reference": "reference", "retained": "retained", "excluded": "excluded"}


def _qty(cell):
    if cell is None:
        return None
    q = {"bytes": cell[0], "provenance": cell[1]}
    if len(cell) > 2:
        q["synthetic"] = True
    return q


def _rows(doc, name):
    fields = doc[name[:-1] + "_fields"]
    return [None if r is None else dict(zip(fields, r)) for r in doc[name]]


def reasons(doc):
    return _rows(doc, "reasons")


def _price(doc, cell, row_line, units=False):
    if cell is None:
        return None
    amount, rest = cell[0], cell[1:]
    out = {}
    if units:
        out["plan_units"], rest = rest[0], rest[1:]
    plan = doc["plans"][rest[0]]
    line = rest[1] if len(rest) > 1 else row_line
    src = plan["source"]
    out.update({"amount": amount, "currency": plan["currency"], "plan": plan,
                "source": src.replace("{line}", line) if src and line is not None else src})
    return out


def candidates(doc):
    gpus = [dict(zip(doc["gpu_fields"], g)) for g in doc["gpus"]]
    lots = [dict(zip(doc["lot_fields"], l)) for l in doc["lots"]]
    rs = reasons(doc)
    out = []
    for row in doc["candidates"]:
        c = dict(zip(doc["candidate_fields"], row))
        lot = lots[c["lot"]]
        gpu = gpus[lot["gpu"]]
        req = dict(zip(doc["requirement_fields"], doc["requirements"][lot["requirements"]]))
        req["budget"] = c["budget"]
        od = _price(doc, c["on_demand"], c["line"])
        it = _price(doc, c["interruptible"], c["line"])
        tc = _price(doc, c["total_cost"], c["line"], units=True)
        out.append({
            "offer": c["offer"], "class": c["class"],
            "status": _STATUS.get(c["class"], "preselected"),
            "gpu_model": gpu["gpu_model"], "cards": lot["cards"],
            "capacity_per_card": _qty(gpu["capacity_per_card"]),
            "lower_bound_per_card": _qty(lot["lower_bound_per_card"]),
            "need_per_card": _qty(lot["need_per_card"]),
            "requirements": req,
            "price_per_hour": {"on_demand": od and dict(od, micro_per_hour=od["amount"]),
                               "interruptible": it and dict(it, micro_per_hour=it["amount"])},
            "total_cost": tc and dict(tc, hundredths=tc["amount"]),
            "rests_on_synthetic": any(rs[i] is not None and rs[i]["rests_on_synthetic"]
                                      for i in req.values()),
        })
    return out
