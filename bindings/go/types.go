// The JSON documents of libwm as Go types: the bundle listing (Definition, ComponentInfo,
// Resolver) and the resolution of one workload (Workload, ResolvedComponent, Instance). Field names
// follow the JSON, which follows `wmc inspect -o json`.
package wm

import "encoding/json"

// Definition is one workload type of a bundle (wm_bundle_definitions).
type Definition struct {
	Name       string          `json:"name"`
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Group      string          `json:"group"`
	Version    string          `json:"version"`
	Components []ComponentInfo `json:"components"`
	PodGroups  []string        `json:"podGroups"`
}

// ComponentInfo is a component of a Definition, in definition order (the root first).
type ComponentInfo struct {
	Name                string  `json:"name"`
	APIVersion          string  `json:"apiVersion"`
	Kind                string  `json:"kind"`
	Owner               *string `json:"owner"` // nil for the root
	HasPodDefinition    bool    `json:"hasPodDefinition"`
	HasInstanceIDPath   bool    `json:"hasInstanceIdPath"`
	HasScaleDefinition  bool    `json:"hasScaleDefinition"`
	HasStatusDefinition bool    `json:"hasStatusDefinition"`
}

// Resolver is one compiled jq expression of a bundle (wm_bundle_resolvers).
type Resolver struct {
	ID         int    `json:"id"`
	Definition string `json:"definition"`
	Component  string `json:"component"`
	Role       string `json:"role"`
	Source     string `json:"source"`
	Native     bool   `json:"native"`
}

// PodSide reports whether the resolver runs on Pod objects (selectors, gang filters and keys)
// rather than on the workload.
func (r Resolver) PodSide() bool {
	switch r.Role {
	case "type-selector-key", "instance-selector-id", "replica-selector-key", "gang-filter", "gang-group-by-key":
		return true
	}
	return false
}

// Workload is the resolution of one workload object (wm_resolve).
type Workload struct {
	APIVersion string              `json:"apiVersion"`
	Kind       string              `json:"kind"`
	Name       string              `json:"name"`
	Namespace  string              `json:"namespace"`
	Definition string              `json:"definition"`
	Status     []string            `json:"status"` // matched statuses, upstream order; ["Undefined"] when none
	Phase      *string             `json:"phase"`  // nil without a phase definition
	Conditions []Condition         `json:"conditions"`
	Resources  struct{ GPUs float64 `json:"gpus"` } `json:"resources"`
	Components []ResolvedComponent `json:"components"` // definition order, the root first
	Problems   []string            `json:"problems"`   // workload-level (status) problems
}

// ResolvedComponent is one component of a Workload.
type ResolvedComponent struct {
	Name      string     `json:"name"`
	Kind      string     `json:"kind"`
	Owner     *string    `json:"owner"`
	GPUs      float64    `json:"gpus"`
	Instances []Instance `json:"instances"`
	Problems  []string   `json:"problems"` // resolver errors of this component
}

// Instance is one instance of a component ("" for a single-instance component).
type Instance struct {
	ID          string  `json:"id"`
	Replicas    *int64  `json:"replicas"`
	MinReplicas *int64  `json:"minReplicas"`
	MaxReplicas *int64  `json:"maxReplicas"`
	GPUsPerPod  float64 `json:"gpusPerPod"`
	GPUs        float64 `json:"gpus"`
	// What the component's paths extracted for this instance (absent without that definition), as
	// JSON: a PodTemplateSpec, a PodSpec, upstream's FragmentedPodSpec, an ObjectMeta.
	PodTemplateSpec   json.RawMessage `json:"podTemplateSpec,omitempty"`
	PodSpec           json.RawMessage `json:"podSpec,omitempty"`
	FragmentedPodSpec json.RawMessage `json:"fragmentedPodSpec,omitempty"`
	Metadata          json.RawMessage `json:"metadata,omitempty"`
}

// Condition of the workload as upstream reads it (fields through the configured names; fields
// that are absent or not strings are left out).
type Condition struct {
	Type    string  `json:"type"`
	Status  *string `json:"status,omitempty"`
	Message string  `json:"message,omitempty"`
	Reason  *string `json:"reason,omitempty"`
}

// Component returns the named component, or nil.
func (w *Workload) Component(name string) *ResolvedComponent {
	for i := range w.Components {
		if w.Components[i].Name == name {
			return &w.Components[i]
		}
	}
	return nil
}
