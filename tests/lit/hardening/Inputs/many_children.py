#!/usr/bin/env python3
"""Prints a definition whose root owns N pod-bearing children without pod selectors (every pair
of siblings overlaps: WM071). Used by hardening/many-children.test.
  many_children.py N"""
import sys

count = int(sys.argv[1])
print("""apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: many-children
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {group: example.com, version: v1, kind: Top}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running: [{byPhase: Running}]
    childComponents:""")
for i in range(count):
    print(f"    - name: c{i}\n      ownerRef: top\n      specDefinition: {{podSpecPath: .spec.c{i}}}")
