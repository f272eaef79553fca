SELECT setting FROM pg_catalog.pg_settings WHERE name='max_index_keys'
