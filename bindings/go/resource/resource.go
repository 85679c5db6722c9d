// Package resource mirrors the upstream Workload Map Go library's package of the same name
// (ComponentFactory, Component, Scale, Status, ExtractedInstance) over libwm, so a consumer
// switches with small edits: the definition comes from a compiled bundle instead of a Karta
// object, and pod shapes are json.RawMessage instead of corev1 types (unmarshal them into
// corev1.PodTemplateSpec etc. where the Kubernetes API types are available).
//
// Upstream evaluates jq lazily per call; here the factory resolves the whole workload once
// (one libwm call) and the Component methods read from that result. The context arguments are
// kept for source compatibility.
package resource

import (
	"encoding/json"
	"fmt"

	"github.com/wmc/wm"
)

// DefinitionNotFoundError is returned when a component lacks the requested definition; as
// upstream, Component methods turn it into an empty answer.
type DefinitionNotFoundError string

func (e DefinitionNotFoundError) Error() string { return string(e) }

// Scale of one instance (upstream's Scale).
type Scale struct {
	Replicas    *int32 `json:"replicas,omitempty"`
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	MaxReplicas *int32 `json:"maxReplicas,omitempty"`
}

// Condition of the workload (upstream's Condition).
type Condition = wm.Condition

// ResourceStatus is a matched status name ("Running", "Completed", ..., "Undefined").
type ResourceStatus string

// Status of the root component (upstream's Status).
type Status struct {
	Phase           *string          `json:"phase,omitempty"`
	Conditions      []Condition      `json:"conditions,omitempty"`
	MatchedStatuses []ResourceStatus `json:"matchedStatuses"`
}

// ExtractedInstance is everything extracted for one instance (upstream's ExtractedInstance).
type ExtractedInstance struct {
	PodTemplateSpec   json.RawMessage `json:"podTemplateSpec,omitempty"`
	PodSpec           json.RawMessage `json:"podSpec,omitempty"`
	FragmentedPodSpec json.RawMessage `json:"fragmentedPodSpec,omitempty"`
	Metadata          json.RawMessage `json:"metadata,omitempty"`
	Scale             *Scale          `json:"scale,omitempty"`
}

// ComponentFactory gives the components of one workload object (upstream's ComponentFactory).
type ComponentFactory struct {
	definition wm.Definition
	workload   *wm.Workload
	bundle     *wm.Bundle
	object     []byte // the workload object as JSON: what the writes start from
}

// NewComponentFactoryFromObject resolves object (JSON bytes or anything encoding/json marshals,
// e.g. *unstructured.Unstructured) through the bundle definition of its apiVersion/kind.
// Upstream takes the Karta definition as its first argument; here the bundle finds it.
func NewComponentFactoryFromObject(bundle *wm.Bundle, object any) (*ComponentFactory, error) {
	data, err := wm.ObjectJSON(object)
	if err != nil {
		return nil, err
	}
	workload, err := bundle.Resolve(data, nil)
	if err != nil {
		return nil, err
	}
	defs, err := bundle.Definitions()
	if err != nil {
		return nil, err
	}
	for _, d := range defs {
		if d.Name == workload.Definition {
			return &ComponentFactory{definition: d, workload: workload, bundle: bundle, object: data}, nil
		}
	}
	return nil, &wm.Error{Code: wm.CodeInternal, Message: "definition " + workload.Definition + " not in bundle"}
}

// Workload is the whole resolution the factory was built from.
func (f *ComponentFactory) Workload() *wm.Workload { return f.workload }

// GetComponent retrieves a component by name.
func (f *ComponentFactory) GetComponent(name string) (*Component, error) {
	for i, info := range f.definition.Components {
		if info.Name == name {
			return &Component{info: info, resolved: &f.workload.Components[i], factory: f}, nil
		}
	}
	return nil, fmt.Errorf("component %s not found", name)
}

// GetRootComponent retrieves the root component.
func (f *ComponentFactory) GetRootComponent() (*Component, error) {
	return f.GetComponent(f.definition.Components[0].Name)
}

// GetChildComponents retrieves every non-root component, in definition order.
func (f *ComponentFactory) GetChildComponents() ([]*Component, error) {
	var out []*Component
	for _, info := range f.definition.Components[1:] {
		c, err := f.GetComponent(info.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// GetChildComponentsOf retrieves the direct children of the named component.
func (f *ComponentFactory) GetChildComponentsOf(parentName string) ([]*Component, error) {
	var out []*Component
	for _, info := range f.definition.Components {
		if info.Owner != nil && *info.Owner == parentName {
			c, err := f.GetComponent(info.Name)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}
