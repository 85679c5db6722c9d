// Package instructions mirrors the pod side of the upstream Workload Map Go library's package of
// the same name (InferPodComponent, InferPodComponentInstance, the effective gang component) over
// libwm: each call maps the pod in one wm_pod_map call and returns the answer asked for, with
// upstream's error when that answer failed.
package instructions

import (
	"encoding/json"

	"github.com/wmc/wm"
)

// AnswerError is the failure of one answer about a pod: the answer's JSON name ("component",
// "instance", "replicaKey") and upstream's message, which is what Error() returns.
type AnswerError struct {
	Answer  string
	Message string
}

func (e *AnswerError) Error() string { return e.Message }

// PodAnswer is every answer for one pod at once (see wm.PodAnswer).
type PodAnswer = wm.PodAnswer

// AnswerPod maps pod (JSON bytes or anything encoding/json marshals) to workload, its owner.
func AnswerPod(bundle *wm.Bundle, workload, pod any) (*PodAnswer, error) {
	return bundle.MapPod(workload, pod, nil)
}

// answerError is the failure of one answer, with upstream's message.
func answerError(a *PodAnswer, key string) error {
	if msg, failed := a.Errors[key]; failed {
		return &AnswerError{Answer: key, Message: msg}
	}
	return nil
}

// InferPodComponent returns the name of the component the pod belongs to (upstream's
// InferPodComponent), or upstream's error (`no component found for pod <name>`, ...).
func InferPodComponent(bundle *wm.Bundle, workload, pod any) (string, error) {
	a, err := AnswerPod(bundle, workload, pod)
	if err != nil {
		return "", err
	}
	if err := answerError(a, "component"); err != nil {
		return "", err
	}
	return *a.Component, nil
}

// InferPodComponentInstance returns the pod's instance id of its component; nil for a
// single-instance component or one without a podSelector.
func InferPodComponentInstance(bundle *wm.Bundle, workload, pod any) (*string, error) {
	a, err := AnswerPod(bundle, workload, pod)
	if err != nil {
		return nil, err
	}
	if err := answerError(a, "component"); err != nil {
		return nil, err
	}
	return a.Instance, answerError(a, "instance")
}

// Gangs is the gang scheduling of one workload (see wm.Gangs).
type Gangs = wm.Gangs

// PlanPodGroups returns the gang scheduling of workload: the podGroup plan, the legacy podGroups
// with their members' minimum counts, and the form KAI follows.
func PlanPodGroups(bundle *wm.Bundle, workload any) (*Gangs, error) {
	return bundle.Gangs(workload, nil)
}

// CalculateSubtreeScale returns upstream's CalculateSubtreeScale for a legacy podGroups member's
// component (and one of its instances when instanceID is not ""), as wm_gangs computes it. Only
// components named by a podGroups member are available; others are CodeNotFound.
func CalculateSubtreeScale(bundle *wm.Bundle, workload any, component, instanceID string) (int64, error) {
	g, err := PlanPodGroups(bundle, workload)
	if err != nil {
		return 0, err
	}
	for _, group := range g.PodGroups {
		for _, m := range group.Members {
			if m.Component != component {
				continue
			}
			if instanceID == "" {
				return countOf(m.MinMember)
			}
			for _, inst := range m.Instances {
				if inst.ID == instanceID {
					return countOf(inst.MinMember)
				}
			}
			return 0, &wm.Error{Code: wm.CodeNotFound, Message: "instance id " + instanceID + " not found"}
		}
	}
	return 0, &wm.Error{Code: wm.CodeNotFound, Message: "component " + component + " is not a podGroups member"}
}

// countOf reads a minMember: a number, or {"error": upstream's message}.
func countOf(raw json.RawMessage) (int64, error) {
	var n int64
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, nil
	}
	var failed struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(raw, &failed); err != nil {
		return 0, err
	}
	return 0, &wm.Error{Code: wm.CodeEvaluation, Message: failed.Error}
}
