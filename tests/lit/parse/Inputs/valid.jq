def replicas: .spec.replicas // 1;
[.spec.template, replicas]
