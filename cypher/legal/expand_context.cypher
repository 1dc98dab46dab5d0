// purpose: Propagate from seed units in one round trip: validity tracing along incoming AMENDS/REPLACES/SUPPLEMENTS/REPEALS chains (of the unit and of its containing units) to the wording in force at the as-of date, one-hop REFERS_TO from seeds and successors, and provenance (document and position) of every unit involved.
// mode: read
// param seed_ids: list<string> -- seed unit ids in rank order
// param as_of: date -- date validity is judged at
// param max_depth: int -- longest change chain followed (at most 10); longer chains are reported as cut
// param max_refs: int -- most REFERS_TO targets per seed or successor
// returns: seeds, units
// rows: plain
WITH $seed_ids AS seed_ids
// include: _trace_seeds
