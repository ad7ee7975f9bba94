namespace retort {}
