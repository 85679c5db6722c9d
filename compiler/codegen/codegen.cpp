// Placeholder until this stage lands.
