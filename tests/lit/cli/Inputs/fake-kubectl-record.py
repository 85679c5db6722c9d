#!/usr/bin/env python3
# Writes the recorded cluster fake-kubectl serves (fake-kubectl.d/): one `kubectl get RESOURCE -A
# -o json` List per resource, built from catalog/examples and catalog/examples/pods, plus the
# objects a real cluster holds beside them (the JobSet's child Jobs, the Deployment's ReplicaSet)
# and what the API server adds (uid, creationTimestamp, resourceVersion). Run it again after
# changing those examples:  python3 tests/lit/cli/Inputs/fake-kubectl-record.py
import json
import os
import uuid

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
EXAMPLES = os.path.join(SRC, "catalog", "examples")
OUT = os.path.join(HERE, "fake-kubectl.d")


def load(path):
    with open(os.path.join(EXAMPLES, path)) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def server_fields(obj, created):
    meta = obj["metadata"]
    meta.setdefault("uid", str(uuid.uuid5(uuid.NAMESPACE_URL, meta["namespace"] + "/" + meta["name"])))
    meta.setdefault("creationTimestamp", created)
    meta.setdefault("resourceVersion", str(1000 + len(meta["name"])))
    return obj


def child(api_version, kind, name, namespace, uid, owner, created, status):
    return {"apiVersion": api_version, "kind": kind,
            "metadata": {"name": name, "namespace": namespace, "uid": uid, "creationTimestamp": created,
                         "ownerReferences": [{"apiVersion": owner["apiVersion"], "kind": owner["kind"],
                                              "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
                                              "controller": True, "blockOwnerDeletion": True}]},
            "spec": {}, "status": status}


def main():
    jobset = load("jobset-training.yaml")[0]
    jobsets = [jobset, load("jobset-failed.yaml")[0]]
    deployment = load("apps-deployment-v1-running.yaml")[0]
    batch_job = load("batch-job-v1-running.yaml")[0]
    volcano = load("batch-volcano-sh-job-v1alpha1-running.yaml")[0]
    pods = []
    for name, created in [("jobset-x-k8s-io-jobset-v1alpha2-pods.yaml", "2026-11-30T09:12:10Z"),
                          ("apps-deployment-v1-pods.yaml", "2026-11-20T10:00:05Z"),
                          ("batch-job-v1-pods.yaml", "2026-12-02T08:00:05Z")]:
        pods += [server_fields(p, created) for p in load("pods/" + name)]
    child_jobs = []
    for pod in pods:
        ref = pod["metadata"]["ownerReferences"][0]
        if ref["kind"] == "Job" and ref["name"].startswith("llama-pretrain-"):
            child_jobs.append(child("batch/v1", "Job", ref["name"], "team-a", ref["uid"], jobset,
                                    "2026-11-30T09:12:05Z", {"active": 1, "ready": 1}))
    rs_ref = next(p for p in pods if p["metadata"]["name"].startswith("vllm-mistral"))["metadata"]["ownerReferences"][0]
    replicaset = child("apps/v1", "ReplicaSet", rs_ref["name"], "inference", rs_ref["uid"], deployment,
                       "2026-11-20T10:00:01Z", {"replicas": 3, "readyReplicas": 3})
    resources = {
        "jobsets.v1alpha2.jobset.x-k8s.io": jobsets,
        "deployments.v1.apps": [deployment],
        "replicasets.v1.apps": [replicaset],
        "jobs.v1.batch": [batch_job] + child_jobs,
        "jobs.v1alpha1.batch.volcano.sh": [volcano],
        "pods": pods,
    }
    os.makedirs(OUT, exist_ok=True)
    for resource, items in resources.items():
        for o in items:
            server_fields(o, "2026-11-01T00:00:00Z")
        with open(os.path.join(OUT, resource + ".json"), "w") as f:
            json.dump({"apiVersion": "v1", "items": items, "kind": "List",
                       "metadata": {"resourceVersion": ""}}, f, indent=4)
            f.write("\n")
    served = ["configmaps", "pods", "services", "deployments.apps", "replicasets.apps", "jobs.batch",
              "jobsets.jobset.x-k8s.io", "jobs.batch.volcano.sh", "podgroups.scheduling.volcano.sh"]
    with open(os.path.join(OUT, "api-resources.txt"), "w") as f:
        f.write("\n".join(served) + "\n")


if __name__ == "__main__":
    main()
