// purpose: Upsert legal units (and unit versions) with their level label and their containment edge from the parent; a Placeholder with the same id becomes the real unit in place, a missing parent becomes a Placeholder.
// mode: write
// param rows: list<map> -- one map per unit in document order (parents first) {id, level: Part|Chapter|Section|Subsection|Article|Clause|Point|Annex, version: bool, parent: id of the containing Document or unit or null, parent_kind: 'unit'|'document', parent_doc, props: {doc_id, level, number, path, label, heading, text, text_segmented, embedding?, ordinal, valid_from, valid_to, status, citation, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
// One dynamic label set instead of a conditional SET per level; only known levels become labels.
SET u += row.props, u:$(['LegalUnit'] + CASE
  WHEN row.version THEN ['UnitVersion']
  WHEN row.level IN ['Part', 'Chapter', 'Section', 'Subsection', 'Article', 'Clause', 'Point', 'Annex']
    THEN [row.level]
  ELSE [] END)
REMOVE u:Placeholder, u.kind
WITH u, row
CALL (u, row) {
  WITH u, row WHERE row.parent IS NOT NULL
  MERGE (p:LegalNode {id: row.parent})
    ON CREATE SET p:Placeholder, p.kind = row.parent_kind, p.doc_id = row.parent_doc
  MERGE (p)-[:CONTAINS]->(u)
}
RETURN count(u) AS count
