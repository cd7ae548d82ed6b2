import { Client } from 'pg';

export interface PostgresServerAddress {
  port: number;
  user: string;
  password: string;
}

/** A column that holds the needle in at least one row: `database.schema.table.column`, and its type. */
export interface ColumnHit {
  column: string;
  dataType: string;
}

/**
 * Every column of every table in every database of the server that holds `needle` in some row,
 * searched over the stored values as PostgreSQL decodes them (so a value it compressed or moved
 * out of line, TOAST, is searched whole): bytes (bytea) for the needle's UTF-8 bytes, every other
 * type as its text form (text, jsonb, arrays, …).
 */
export async function columnsHolding(server: PostgresServerAddress, needle: string): Promise<ColumnHit[]> {
  const connect = async (database: string) => {
    const client = new Client({ host: '127.0.0.1', port: server.port, user: server.user, password: server.password, database });
    await client.connect();
    return client;
  };
  const admin = await connect('postgres');
  let databases: string[];
  try {
    databases = (await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE NOT datistemplate ORDER BY datname')).rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
  const hits: ColumnHit[] = [];
  for (const database of databases) {
    const client = await connect(database);
    try {
      const columns = await client.query<{ table_schema: string; table_name: string; column_name: string; data_type: string }>(
        `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
           FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      for (const { table_schema: schema, table_name: table, column_name: column, data_type: dataType } of columns.rows) {
        const name = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`;
        const value = client.escapeIdentifier(column);
        const condition = dataType === 'bytea' ? `position(convert_to($1, 'UTF8') in ${value}) > 0` : `strpos(${value}::text, $1) > 0`;
        const found = await client.query(`SELECT 1 FROM ${name} WHERE ${condition} LIMIT 1`, [needle]);
        if ((found.rowCount ?? 0) > 0) hits.push({ column: `${database}.${schema}.${table}.${column}`, dataType });
      }
    } finally {
      await client.end();
    }
  }
  return hits;
}
