// Component: one component of a resolved workload, with upstream's method names and answers
// (instance ids, scale and extracted instances keyed by instance id, status of the root).
package resource

import (
	"context"
	"errors"
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

// GetExtractedInstances returns, per instance id, what was extracted for it.
func (c *Component) GetExtractedInstances(ctx context.Context) (map[string]ExtractedInstance, error) {
	ids, err := c.GetInstanceIds(ctx)
	if err != nil {
		return nil, err
	}
	scales, err := c.GetScale(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]ExtractedInstance, len(ids))
	for i, id := range ids {
		inst := c.resolved.Instances[i]
		e := ExtractedInstance{PodTemplateSpec: inst.PodTemplateSpec, PodSpec: inst.PodSpec,
			FragmentedPodSpec: inst.FragmentedPodSpec, Metadata: inst.Metadata}
		if s, ok := scales[id]; ok {
			e.Scale = &s
		}
		out[id] = e
	}
	return out, nil
}

// GetStatus returns the workload's status when this component has the status definition (the
// root); nil otherwise, as upstream.
func (c *Component) GetStatus(ctx context.Context) (*Status, error) {
	if !c.info.HasStatusDefinition {
		return nil, nil
	}
	w := c.factory.workload
	if len(w.Problems) > 0 {
		return nil, errors.New("failed to match status: " + strings.Join(w.Problems, "; "))
	}
	s := &Status{Phase: w.Phase, Conditions: w.Conditions}
	for _, name := range w.Status {
		s.MatchedStatuses = append(s.MatchedStatuses, ResourceStatus(name))
	}
	return s, nil
}
