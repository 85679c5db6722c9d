#!/usr/bin/env python3
# Test helper: prints, for every pod of a YAML pod list, the pod name and the value a catalog
# definition's componentTypeSelector keyPath gives for it, evaluated by `wmc eval`, so a lit test
# can check which component the definition assigns each pod to.
# Usage: component_keys.py WMC DEFINITION.yaml COMPONENT PODS.yaml
import json
import subprocess
import sys

import yaml

wmc, definition_path, component_name, pods_path = sys.argv[1:5]
with open(definition_path) as definition_file:
    definition = yaml.safe_load(definition_file)
components = definition["spec"]["structureDefinition"]["childComponents"]
component = next(c for c in components if c["name"] == component_name)
key_path = component["podSelector"]["componentTypeSelector"]["keyPath"]
with open(pods_path) as pods_file:
    pods = [pod for pod in yaml.safe_load_all(pods_file) if pod]
for pod in pods:
    result = subprocess.run([wmc, "eval", key_path], input=json.dumps(pod), text=True,
                            capture_output=True, check=True)
    print(pod["metadata"]["name"], result.stdout.strip())
