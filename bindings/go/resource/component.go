// Component: one component of a resolved workload, with upstream's method names and answers
// (instance ids, scale and extracted instances keyed by instance id, status of the root).
package resource

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/wmc/wm"
)

// GroupVersionKind of a component (upstream returns metav1.GroupVersionKind).
type GroupVersionKind struct {
	Group, Version, Kind string
}

// Component is one component of a workload (upstream's Component).
type Component struct {
	info     wm.ComponentInfo
	resolved *wm.ResolvedComponent
	factory  *ComponentFactory
}

// Name returns the component name.
func (c *Component) Name() string { return c.info.Name }

// Kind returns the component's group/version/kind.
func (c *Component) Kind() *GroupVersionKind {
	group, version := "", c.info.APIVersion
	if i := strings.LastIndex(version, "/"); i >= 0 {
		group, version = version[:i], version[i+1:]
	}
	return &GroupVersionKind{Group: group, Version: version, Kind: c.info.Kind}
}

// HasPodDefinition reports whether the component defines pods.
func (c *Component) HasPodDefinition() bool { return c.info.HasPodDefinition }

// HasInstanceIdDefinition reports whether the component may have several instances.
func (c *Component) HasInstanceIdDefinition() bool { return c.info.HasInstanceIDPath }

// err is the component's resolution failure, if any: upstream fails the extraction where wmc
// records a problem and goes on.
func (c *Component) err(what string) error {
	if len(c.resolved.Problems) == 0 {
		return nil
	}
	return &wm.Error{Code: wm.CodeEvaluation,
		Message: what + " for component " + c.info.Name + ": " + strings.Join(c.resolved.Problems, "; ")}
}

// GetInstanceIds returns the instance ids in the workload's order; [""] for a single-instance
// component.
func (c *Component) GetInstanceIds(ctx context.Context) ([]string, error) {
	if err := c.err("failed to extract instance ids"); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(c.resolved.Instances))
	for _, inst := range c.resolved.Instances {
		ids = append(ids, inst.ID)
	}
	return ids, nil
}

func int32Of(n *int64) *int32 {
	if n == nil {
		return nil
	}
	v := int32(*n)
	return &v
}

// GetScale returns the scale of each instance; nil when the component has no scale definition.
func (c *Component) GetScale(ctx context.Context) (map[string]Scale, error) {
	if !c.info.HasScaleDefinition {
		return nil, nil
	}
	if err := c.err("failed to extract scales"); err != nil {
		return nil, err
	}
	out := make(map[string]Scale, len(c.resolved.Instances))
	for _, inst := range c.resolved.Instances {
		out[inst.ID] = Scale{Replicas: int32Of(inst.Replicas), MinReplicas: int32Of(inst.MinReplicas),
			MaxReplicas: int32Of(inst.MaxReplicas)}
	}
	return out, nil
}

// GetExtractedInstances returns, per instance id, what was extracted for it, with upstream's
// error when a path fails (one libwm call, wm_component_extract).
func (c *Component) GetExtractedInstances(ctx context.Context) (map[string]ExtractedInstance, error) {
	data, err := c.factory.bundle.ExtractJSON(c.factory.object, c.abiName(), nil)
	if err != nil {
		return nil, err
	}
	var list []struct {
		ID string `json:"id"`
		ExtractedInstance
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	out := make(map[string]ExtractedInstance, len(list))
	for _, inst := range list {
		out[inst.ID] = inst.ExtractedInstance
	}
	return out, nil
}

// GetStatus returns the workload's status when this component has the status definition (the
// root); nil otherwise, as upstream. Errors are upstream's (wm_status).
func (c *Component) GetStatus(ctx context.Context) (*Status, error) {
	if !c.info.HasStatusDefinition {
		return nil, nil
	}
	data, err := c.factory.bundle.StatusJSON(c.factory.object, c.abiName(), nil)
	if err != nil {
		return nil, err
	}
	s := &Status{}
	return s, json.Unmarshal(data, s)
}

// abiName is "" for the root (the ABI's NULL), else the component's name.
func (c *Component) abiName() string {
	if c.info.Owner == nil {
		return ""
	}
	return c.info.Name
}

// ApplySuspendActions applies the component's suspend actions to the factory's object and returns
// the updated object (JSON). Upstream changes its unstructured object in place; here the factory's
// object stays as it was resolved.
func (c *Component) ApplySuspendActions(ctx context.Context) (json.RawMessage, error) {
	return c.factory.bundle.SuspendJSON(c.factory.object, c.abiName(), nil)
}

// ApplyResumeActions applies the component's resume actions, as ApplySuspendActions.
func (c *Component) ApplyResumeActions(ctx context.Context) (json.RawMessage, error) {
	return c.factory.bundle.ResumeJSON(c.factory.object, c.abiName(), nil)
}

// UpdatePodTemplateSpec writes the pod template spec of each instance (instance id -> spec, ""
// for a single-instance component) and returns the updated object.
func (c *Component) UpdatePodTemplateSpec(ctx context.Context, specs map[string]json.RawMessage) (json.RawMessage, error) {
	return c.factory.bundle.UpdateJSON(c.factory.object, c.abiName(), "podTemplateSpec", specs, nil)
}

// UpdatePodSpec writes the pod spec of each instance, as UpdatePodTemplateSpec.
func (c *Component) UpdatePodSpec(ctx context.Context, specs map[string]json.RawMessage) (json.RawMessage, error) {
	return c.factory.bundle.UpdateJSON(c.factory.object, c.abiName(), "podSpec", specs, nil)
}

// UpdatePodMetadata writes the pod metadata of each instance, as UpdatePodTemplateSpec.
func (c *Component) UpdatePodMetadata(ctx context.Context, metadata map[string]json.RawMessage) (json.RawMessage, error) {
	return c.factory.bundle.UpdateJSON(c.factory.object, c.abiName(), "metadata", metadata, nil)
}

// UpdateFragmentedPodSpec writes fragmented pod specs (FragmentedPodSpec objects) of each
// instance, as UpdatePodTemplateSpec.
func (c *Component) UpdateFragmentedPodSpec(ctx context.Context, specs map[string]json.RawMessage) (json.RawMessage, error) {
	return c.factory.bundle.UpdateJSON(c.factory.object, c.abiName(), "fragmentedPodSpec", specs, nil)
}
