// purpose: Upsert legal units (and unit versions) with their level label and their containment edge from the parent; a Placeholder with the same id becomes the real unit in place, a missing parent becomes a Placeholder.
// mode: write
// param rows: list<map> -- one map per unit in document order (parents first) {id, level: Part|Chapter|Section|Subsection|Article|Clause|Point|Annex, version: bool, parent: id of the containing Document or unit or null, parent_kind: 'unit'|'document', parent_doc, props: {doc_id, level, number, path, label, heading, text, text_segmented, embedding?, ordinal, valid_from, valid_to, status, citation, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
SET u:LegalUnit, u += row.props
REMOVE u:Placeholder, u.kind
FOREACH (_ IN CASE WHEN row.version THEN [1] ELSE [] END | SET u:UnitVersion)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Part' THEN [1] ELSE [] END | SET u:Part)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Chapter' THEN [1] ELSE [] END | SET u:Chapter)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Section' THEN [1] ELSE [] END | SET u:Section)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Subsection' THEN [1] ELSE [] END | SET u:Subsection)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Article' THEN [1] ELSE [] END | SET u:Article)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Clause' THEN [1] ELSE [] END | SET u:Clause)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Point' THEN [1] ELSE [] END | SET u:Point)
FOREACH (_ IN CASE WHEN NOT row.version AND row.level = 'Annex' THEN [1] ELSE [] END | SET u:Annex)
WITH u, row
CALL (u, row) {
  WITH u, row WHERE row.parent IS NOT NULL
  MERGE (p:LegalNode {id: row.parent})
    ON CREATE SET p:Placeholder, p.kind = row.parent_kind, p.doc_id = row.parent_doc
  MERGE (p)-[:CONTAINS]->(u)
}
RETURN count(u) AS count
