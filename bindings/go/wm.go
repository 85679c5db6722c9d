// Package wm is the Go binding of libwm, the wmc runtime's C ABI (runtime/c/wm.h): it opens a
// compiled catalog bundle (.wmb) and resolves Kubernetes workload objects through it. The
// upstream-style API (ComponentFactory, Component, ...) is in the subpackage resource; this
// package is the thin cgo layer: Bundle, Error, Limits, and the JSON calls.
//
// A Bundle is safe for concurrent use by many goroutines. Close it when done (a finalizer closes
// it otherwise).
package wm

/*
#cgo LDFLAGS: -lwm
#include <stdlib.h>
#include <wm.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// ABIVersion is the version of wm.h this package was compiled against.
const ABIVersion = C.WM_ABI_VERSION

// Code classifies an Error, as the C ABI's wm_code does.
type Code int

const (
	CodeInvalidInput Code = C.WM_ERR_INVALID_INPUT // not a Kubernetes object, malformed JSON
	CodeNoDefinition Code = C.WM_ERR_NO_DEFINITION // no definition covers the kind, or a missing component definition
	CodeNotFound     Code = C.WM_ERR_NOT_FOUND     // unknown component, instance id or pod group
	CodeEvaluation   Code = C.WM_ERR_EVALUATION    // a resolver failed or gave results of the wrong shape
	CodeMismatch     Code = C.WM_ERR_MISMATCH      // zip count mismatch, array length mismatch
	CodeLimit        Code = C.WM_ERR_LIMIT         // result cap, step budget, memory or time limit
	CodeBadArgument  Code = C.WM_ERR_BAD_ARGUMENT
	CodeBadBundle    Code = C.WM_ERR_BAD_BUNDLE
	CodeOutOfMemory  Code = C.WM_ERR_OUT_OF_MEMORY
	CodeInternal     Code = C.WM_ERR_INTERNAL
)

// Error is a failure reported by libwm: its code and message (upstream's wording where the Go
// library has one).
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// IsCode reports whether err is a libwm Error with this code.
func IsCode(err error, code Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Limits bound every evaluation, and all evaluations on one workload object together. A zero
// field takes the bundle's value, and the bundle's zero the runtime default (1000 outputs,
// 10,000,000 steps, 256 MiB, 10,000 nested calls, 10 s per evaluation; 50,000,000 steps and 30 s
// per object: docs/limits.md).
type Limits struct {
	MaxOutputs     uint64
	Fuel           uint64
	MaxMemoryBytes uint64
	MaxDepth       uint32
	TimeoutMillis  uint64
	// Shared by every resolver run on one object: a whole Resolve, one pod's mapping, one write.
	ObjectFuel          uint64
	ObjectTimeoutMillis uint64
}

func (l *Limits) c() *C.wm_limits {
	if l == nil {
		return nil
	}
	// C memory: cgo forbids passing Go pointers that the callee might keep; this one is freed by
	// the caller right after the call.
	p := (*C.wm_limits)(C.calloc(1, C.sizeof_wm_limits))
	p.max_outputs = C.uint64_t(l.MaxOutputs)
	p.fuel = C.uint64_t(l.Fuel)
	p.max_memory_bytes = C.uint64_t(l.MaxMemoryBytes)
	p.max_depth = C.uint32_t(l.MaxDepth)
	p.timeout_ms = C.uint64_t(l.TimeoutMillis)
	p.size = C.uint32_t(C.sizeof_wm_limits)
	p.object_fuel = C.uint64_t(l.ObjectFuel)
	p.object_timeout_ms = C.uint64_t(l.ObjectTimeoutMillis)
	return p
}

// Options for opening a bundle.
type Options struct {
	InterpreterOnly bool   // never map the bundle's native code
	Limits          Limits // defaults for every call on the bundle
}

// Bundle is an open catalog bundle.
type Bundle struct {
	mu     sync.RWMutex // calls hold it shared; Close takes it exclusively
	handle *C.wm_bundle
}

func takeError(code C.wm_code, cerr *C.wm_error) error {
	if code == C.WM_OK {
		return nil
	}
	e := &Error{Code: Code(code), Message: fmt.Sprintf("libwm error %d", int(code))}
	if cerr != nil {
		e.Message = C.GoString(C.wm_error_message(cerr))
		C.wm_error_free(cerr)
	}
	return e
}

func takeBuffer(b *C.wm_buffer) []byte {
	defer C.wm_buffer_free(b)
	return C.GoBytes(unsafe.Pointer(b.data), C.int(b.size))
}

func cOptions(o *Options) *C.wm_open_options {
	if o == nil {
		return nil
	}
	p := (*C.wm_open_options)(C.calloc(1, C.sizeof_wm_open_options))
	if o.InterpreterOnly {
		p.interpreter_only = 1
	}
	l := o.Limits.c()
	p.limits = *l
	C.free(unsafe.Pointer(l))
	return p
}

func newBundle(handle *C.wm_bundle) *Bundle {
	b := &Bundle{handle: handle}
	runtime.SetFinalizer(b, (*Bundle).Close)
	return b
}

// Open opens a bundle file; options may be nil.
func Open(path string, options *Options) (*Bundle, error) {
	if v := int(C.wm_abi_version()); v != ABIVersion {
		return nil, &Error{Code: CodeInternal, Message: fmt.Sprintf("libwm ABI %d, binding built for %d", v, ABIVersion)}
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	copts := cOptions(options)
	defer C.free(unsafe.Pointer(copts))
	var handle *C.wm_bundle
	var cerr *C.wm_error
	if err := takeError(C.wm_bundle_open(cpath, copts, &handle, &cerr), cerr); err != nil {
		return nil, err
	}
	return newBundle(handle), nil
}

// OpenBytes opens a bundle from memory; the library keeps its own copy of data.
func OpenBytes(data []byte, options *Options) (*Bundle, error) {
	cdata := C.CBytes(data)
	defer C.free(cdata)
	copts := cOptions(options)
	defer C.free(unsafe.Pointer(copts))
	var handle *C.wm_bundle
	var cerr *C.wm_error
	if err := takeError(C.wm_bundle_open_bytes(cdata, C.size_t(len(data)), copts, &handle, &cerr), cerr); err != nil {
		return nil, err
	}
	return newBundle(handle), nil
}

// Close releases the bundle; calls after Close fail with CodeBadArgument. It waits for calls in
// progress on other goroutines.
func (b *Bundle) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.handle != nil {
		C.wm_bundle_close(b.handle)
		b.handle = nil
	}
	return nil
}

// call runs one JSON-returning ABI function with the bundle held open.
func (b *Bundle) call(f func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code) ([]byte, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return nil, &Error{Code: CodeBadArgument, Message: "bundle is closed"}
	}
	var out C.wm_buffer
	var cerr *C.wm_error
	if err := takeError(f(b.handle, &out, &cerr), cerr); err != nil {
		return nil, err
	}
	return takeBuffer(&out), nil
}

// withObject passes object (JSON text) to f without copying: the bytes hold no Go pointers and
// libwm only reads them during the call, which cgo's pointer rules allow.
func withObject(object []byte, f func(p *C.char, n C.size_t) C.wm_code) C.wm_code {
	if len(object) == 0 {
		return f(nil, 0)
	}
	return f((*C.char)(unsafe.Pointer(&object[0])), C.size_t(len(object)))
}

// DefinitionsJSON returns wm_bundle_definitions' JSON.
func (b *Bundle) DefinitionsJSON() ([]byte, error) {
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_bundle_definitions(h, out, cerr)
	})
}

// ResolversJSON returns wm_bundle_resolvers' JSON (every compiled jq expression with its role).
func (b *Bundle) ResolversJSON() ([]byte, error) {
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_bundle_resolvers(h, out, cerr)
	})
}

// ResolveJSON resolves a workload object given as JSON and returns wm_resolve's JSON. limits may
// be nil.
func (b *Bundle) ResolveJSON(object []byte, limits *Limits) ([]byte, error) {
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(object, func(p *C.char, n C.size_t) C.wm_code {
			return C.wm_resolve(h, p, n, cl, out, cerr)
		})
	})
}

// Definitions lists the bundle's definitions.
func (b *Bundle) Definitions() ([]Definition, error) {
	data, err := b.DefinitionsJSON()
	if err != nil {
		return nil, err
	}
	var defs []Definition
	return defs, json.Unmarshal(data, &defs)
}

// Resolvers lists the bundle's compiled expressions.
func (b *Bundle) Resolvers() ([]Resolver, error) {
	data, err := b.ResolversJSON()
	if err != nil {
		return nil, err
	}
	var rs []Resolver
	return rs, json.Unmarshal(data, &rs)
}

// Resolve resolves a workload object: JSON bytes, or any value encoding/json can marshal (a
// map[string]any, an *unstructured.Unstructured, a typed object).
func (b *Bundle) Resolve(object any, limits *Limits) (*Workload, error) {
	data, err := ObjectJSON(object)
	if err != nil {
		return nil, err
	}
	out, err := b.ResolveJSON(data, limits)
	if err != nil {
		return nil, err
	}
	w := &Workload{}
	return w, json.Unmarshal(out, w)
}

// ObjectJSON is the JSON text of an object argument: []byte, json.RawMessage and string as they
// are, anything else through encoding/json (CodeInvalidInput when that fails).
func ObjectJSON(object any) ([]byte, error) {
	switch o := object.(type) {
	case []byte:
		return o, nil
	case json.RawMessage:
		return o, nil
	case string:
		return []byte(o), nil
	}
	data, err := json.Marshal(object)
	if err != nil {
		return nil, &Error{Code: CodeInvalidInput, Message: "cannot encode object as JSON: " + err.Error()}
	}
	return data, nil
}

// PodMapJSON maps a Pod (JSON) to the workload object (JSON) it belongs to and returns
// wm_pod_map's JSON: what `wmc pods -o json` prints per pod. limits may be nil.
func (b *Bundle) PodMapJSON(workload, pod []byte, limits *Limits) ([]byte, error) {
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(workload, func(wp *C.char, wn C.size_t) C.wm_code {
			return withObject(pod, func(pp *C.char, pn C.size_t) C.wm_code {
				return C.wm_pod_map(h, wp, wn, pp, pn, cl, out, cerr)
			})
		})
	})
}

// MapPod maps a Pod to the workload object it belongs to (each JSON bytes or anything
// encoding/json marshals): its component, instance, replica key and PodGroup, or upstream's error
// for each answer that failed.
func (b *Bundle) MapPod(workload, pod any, limits *Limits) (*PodAnswer, error) {
	wdata, err := ObjectJSON(workload)
	if err != nil {
		return nil, err
	}
	pdata, err := ObjectJSON(pod)
	if err != nil {
		return nil, err
	}
	out, err := b.PodMapJSON(wdata, pdata, limits)
	if err != nil {
		return nil, err
	}
	a := &PodAnswer{}
	return a, json.Unmarshal(out, a)
}

// PodMapBatchJSON maps many pods of one workload in one call (wm_pod_map_batch): the workload is
// read once. pods is a JSON array of Pods or a List (`kubectl get pods -o json` output); the result
// is a JSON array of wm_pod_map answers in input order. limits may be nil.
func (b *Bundle) PodMapBatchJSON(workload, pods []byte, limits *Limits) ([]byte, error) {
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(workload, func(wp *C.char, wn C.size_t) C.wm_code {
			return withObject(pods, func(pp *C.char, pn C.size_t) C.wm_code {
				return C.wm_pod_map_batch(h, wp, wn, pp, pn, cl, out, cerr)
			})
		})
	})
}

// MapPods maps every pod of pods (a slice of Pods, a List, or their JSON) to the workload, reading
// the workload once; one answer per pod, in order.
func (b *Bundle) MapPods(workload, pods any, limits *Limits) ([]PodAnswer, error) {
	wdata, err := ObjectJSON(workload)
	if err != nil {
		return nil, err
	}
	pdata, err := ObjectJSON(pods)
	if err != nil {
		return nil, err
	}
	out, err := b.PodMapBatchJSON(wdata, pdata, limits)
	if err != nil {
		return nil, err
	}
	var answers []PodAnswer
	return answers, json.Unmarshal(out, &answers)
}

// GangsJSON returns wm_gangs' JSON for a workload object: what `wmc gangs -o json` prints
// without --pods. limits may be nil.
func (b *Bundle) GangsJSON(workload []byte, limits *Limits) ([]byte, error) {
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(workload, func(p *C.char, n C.size_t) C.wm_code {
			return C.wm_gangs(h, p, n, cl, out, cerr)
		})
	})
}

// Gangs returns the gang scheduling of a workload object (JSON bytes or anything encoding/json
// marshals) as the KAI scheduler's Karta grouper builds it.
func (b *Bundle) Gangs(workload any, limits *Limits) (*Gangs, error) {
	data, err := ObjectJSON(workload)
	if err != nil {
		return nil, err
	}
	out, err := b.GangsJSON(data, limits)
	if err != nil {
		return nil, err
	}
	g := &Gangs{}
	return g, json.Unmarshal(out, g)
}

// cComponent is a component name for the C ABI: NULL (the root) for "".
func cComponent(name string) *C.char {
	if name == "" {
		return nil
	}
	return C.CString(name)
}

// SuspendJSON applies the suspend actions of a component ("" for the root) to a workload object
// and returns the updated object (wm_suspend).
func (b *Bundle) SuspendJSON(workload []byte, component string, limits *Limits) ([]byte, error) {
	return b.componentCall(workload, component, limits, func(h *C.wm_bundle, p *C.char, n C.size_t,
		cc *C.char, cl *C.wm_limits, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_suspend(h, p, n, cc, cl, out, cerr)
	})
}

// ResumeJSON applies the resume actions (wm_resume), as SuspendJSON.
func (b *Bundle) ResumeJSON(workload []byte, component string, limits *Limits) ([]byte, error) {
	return b.componentCall(workload, component, limits, func(h *C.wm_bundle, p *C.char, n C.size_t,
		cc *C.char, cl *C.wm_limits, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_resume(h, p, n, cc, cl, out, cerr)
	})
}

// UpdateJSON writes one pod field ("podTemplateSpec", "podSpec", "metadata", "fragmentedPodSpec")
// of every instance of a component ("" for the root) and returns the updated object (wm_update).
// values maps instance ids ("" for a single-instance component) to the values.
func (b *Bundle) UpdateJSON(workload []byte, component, field string, values map[string]json.RawMessage,
	limits *Limits) ([]byte, error) {
	valuesJSON, err := json.Marshal(values)
	if err != nil {
		return nil, &Error{Code: CodeInvalidInput, Message: "cannot encode values as JSON: " + err.Error()}
	}
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	cc := cComponent(component)
	defer C.free(unsafe.Pointer(cc))
	cfield := C.CString(field)
	defer C.free(unsafe.Pointer(cfield))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(workload, func(p *C.char, n C.size_t) C.wm_code {
			return withObject(valuesJSON, func(vp *C.char, vn C.size_t) C.wm_code {
				return C.wm_update(h, p, n, cc, cfield, vp, vn, cl, out, cerr)
			})
		})
	})
}

// ExtractJSON returns wm_component_extract's JSON: upstream's GetExtractedInstances of a
// component ("" for the root) as a list in instance-id order, or upstream's error.
func (b *Bundle) ExtractJSON(workload []byte, component string, limits *Limits) ([]byte, error) {
	return b.componentCall(workload, component, limits, func(h *C.wm_bundle, p *C.char, n C.size_t,
		cc *C.char, cl *C.wm_limits, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_component_extract(h, p, n, cc, cl, out, cerr)
	})
}

// StatusJSON returns wm_status' JSON: upstream's ExtractStatus of a component ("" for the root).
func (b *Bundle) StatusJSON(workload []byte, component string, limits *Limits) ([]byte, error) {
	return b.componentCall(workload, component, limits, func(h *C.wm_bundle, p *C.char, n C.size_t,
		cc *C.char, cl *C.wm_limits, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return C.wm_status(h, p, n, cc, cl, out, cerr)
	})
}

// componentOp is one wm_* operation on a workload object and a component name.
type componentOp func(h *C.wm_bundle, p *C.char, n C.size_t, cc *C.char, cl *C.wm_limits,
	out *C.wm_buffer, cerr **C.wm_error) C.wm_code

// componentCall runs op with the C forms of the limits, the component name ("" = the root) and
// the workload bytes: what suspend, resume, extract and status share.
func (b *Bundle) componentCall(workload []byte, component string, limits *Limits, op componentOp) ([]byte, error) {
	cl := limits.c()
	defer C.free(unsafe.Pointer(cl))
	cc := cComponent(component)
	defer C.free(unsafe.Pointer(cc))
	return b.call(func(h *C.wm_bundle, out *C.wm_buffer, cerr **C.wm_error) C.wm_code {
		return withObject(workload, func(p *C.char, n C.size_t) C.wm_code {
			return op(h, p, n, cc, cl, out, cerr)
		})
	})
}
