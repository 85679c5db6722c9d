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
	APIVersion string      `json:"apiVersion"`
	Kind       string      `json:"kind"`
	Name       string      `json:"name"`
	Namespace  string      `json:"namespace"`
	Definition string      `json:"definition"`
	Status     []string    `json:"status"` // matched statuses, upstream order; ["Undefined"] when none
	Phase      *string     `json:"phase"`  // nil without a phase definition
	Conditions []Condition `json:"conditions"`
	Resources  struct {
		GPUs float64 `json:"gpus"`
	} `json:"resources"`
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

// PodAnswer is everything wm_pod_map answers for one pod (`wmc pods -o json`, one pod). A failed
// answer is nil and its message (upstream's wording) is in Errors under the answer's JSON name:
// "component", "instance" or "replicaKey".
type PodAnswer struct {
	Name         string              `json:"name"`
	Component    *string             `json:"component"`
	Instance     *string             `json:"instance"`            // nil: single-instance component, or failed
	ReplicaKey   *string             `json:"replicaKey"`          // nil: no replicaSelector, or failed
	PodGroupName *string             `json:"podGroupName"`        // KAI's PodGroup; nil when that failed
	PodGroups    *LegacyPodGroup     `json:"podGroups,omitempty"` // the definition has legacy podGroups
	PodGroup     *PodGroupMembership `json:"podGroup,omitempty"`  // the definition has a podGroup
	Errors       map[string]string   `json:"errors,omitempty"`
}

// LegacyPodGroup is where a pod goes under the legacy podGroups (KAI's getPodGroupMetadataAlpha);
// Error is set instead when that failed.
type LegacyPodGroup struct {
	Group              string   `json:"group"`
	EffectiveComponent string   `json:"effectiveComponent"`
	Instance           *string  `json:"instance"`
	GroupKeys          []string `json:"groupKeys"`
	Name               string   `json:"name"`
	MinMember          int64    `json:"minMember"`
	Error              string   `json:"error,omitempty"`
}

// PodGroupMembership is where a pod goes under the podGroup API; Error is set instead when that
// failed.
type PodGroupMembership struct {
	Name         string   `json:"name"`
	SubGroup     *string  `json:"subGroup"`
	KAISubGroups []string `json:"kaiSubGroups"`
	Error        string   `json:"error,omitempty"`
}

// Gangs is the gang scheduling of one workload (wm_gangs, `wmc gangs -o json`).
type Gangs struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	Definition string `json:"definition"`
	// GangSource is the form KAI follows: "podGroup", "podGroups" or "default".
	GangSource string            `json:"gangSource"`
	PodGroup   *PodGroupPlan     `json:"podGroup,omitempty"`  // the definition has a podGroup
	PodGroups  []LegacyGangGroup `json:"podGroups,omitempty"` // the definition has legacy podGroups
	Default    *DefaultPodGroup  `json:"default,omitempty"`   // KAI's default grouper applies
}

// PodGroupPlan is KAI's PodGroup under the podGroup API; Error is set instead when that failed.
type PodGroupPlan struct {
	Name         string         `json:"name"`
	Topology     *Topology      `json:"topology"`
	MinMember    int64          `json:"minMember"`
	MinSubGroups int64          `json:"minSubGroups"`
	SubGroups    []SubGroupPlan `json:"subGroups"`
	Error        string         `json:"error,omitempty"`
}

// SubGroupPlan is one subgroup of a PodGroupPlan.
type SubGroupPlan struct {
	Name      string    `json:"name"`
	MinMember int64     `json:"minMember"`
	Topology  *Topology `json:"topology,omitempty"`
}

// Topology is a topology constraint of a PodGroup or subgroup.
type Topology struct {
	TopologyName           string `json:"topologyName"`
	RequiredTopologyLevel  string `json:"requiredTopologyLevel"`
	PreferredTopologyLevel string `json:"preferredTopologyLevel"`
}

// LegacyGangGroup is one entry of the legacy podGroups.
type LegacyGangGroup struct {
	Name    string       `json:"name"`
	Members []GangMember `json:"members"`
}

// GangMember is a member of a legacy podGroups entry. MinMember is CalculateSubtreeScale of the
// member's component: a number, or {"error": "..."} (upstream's message).
type GangMember struct {
	Component       string           `json:"component"`
	Filters         []string         `json:"filters"`
	GroupByKeyPaths []string         `json:"groupByKeyPaths"`
	MinMember       json.RawMessage  `json:"minMember"`
	Instances       []InstanceMember `json:"instances,omitempty"`
}

// InstanceMember is the subtree scale of one instance of a member's component.
type InstanceMember struct {
	ID        string          `json:"id"`
	MinMember json.RawMessage `json:"minMember"`
}

// DefaultPodGroup is KAI's default grouper's PodGroup: one per workload, minimum 1.
type DefaultPodGroup struct {
	Name      string `json:"name"`
	MinMember int64  `json:"minMember"`
}
