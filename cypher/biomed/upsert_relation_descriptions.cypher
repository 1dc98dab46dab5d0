// purpose: Store the relation description map (natural-language text and Table 7 family per relation type).
// mode: write
// param rows: list<map> -- {id, text, family, head_type, tail_type}
// returns: count
UNWIND $rows AS row
MERGE (d:RelationDescription {id: row.id})
SET d.text = row.text, d.family = row.family, d.head_type = row.head_type,
    d.tail_type = row.tail_type
RETURN count(d) AS count
