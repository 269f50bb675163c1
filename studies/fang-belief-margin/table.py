"""Print the belief-margin tables: python studies/fang-belief-margin/table.py studies/fang-belief-margin/results.jsonl"""
import json, math, sys
def wilson(w, g, z=1.96):
    p = w / g; d = 1 + z * z / g; c = (p + z * z / (2 * g)) / d
    h = z * math.sqrt(p * (1 - p) / g + z * z / (4 * g * g)) / d
    return c - h, c + h
rows = [json.loads(l) for l in open(sys.argv[1])]
cell = {(r["floor"], r["players"], r["bots"]): r for r in rows}
heur = {r["players"]: r for r in rows if r["bots"] == "heuristic"}
for floor in sorted({r["floor"] for r in rows}):
    print(f"\nfloor {floor}\n")
    print("| players | with vs normal witches | without | | with vs heuristic witches | without | |")
    print("|---|---|---|---|---|---|---|")
    for n in range(4, 13):
        out = [str(n)]
        for a, b in (("normal", "normal-witches"), ("normal-village", "heuristic")):
            x = cell.get((floor, n, a)); y = cell.get((floor, n, b)) if b != "heuristic" else heur.get(n)
            if x is None or y is None:
                out += ["—", "—", ""]; continue
            lx = wilson(x["village"], x["games"]); ly = wilson(y["village"], y["games"])
            mark = "better" if lx[0] > ly[1] else ("worse" if lx[1] < ly[0] else "overlap")
            f = lambda r, l: f"{100 * r['village'] / r['games']:.1f}% ({100 * l[0]:.1f}–{100 * l[1]:.1f})"
            out += [f(x, lx), f(y, ly), mark]
        print("| " + " | ".join(out) + " |")
