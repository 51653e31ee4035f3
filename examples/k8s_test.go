// Package examples_test checks the cluster examples of docs/cluster.md that
// no CI can run for real: the Kubernetes Jobs. With no cluster, no kubectl
// and no network, it does what can be done offline:
//
//   - parses each YAML file with a small decoder of the subset the examples
//     use (it refuses anything beyond that subset rather than guess);
//   - checks every field against a transcription of the batch/v1 Job schema
//     (every field name of Job, JobSpec, ObjectMeta, PodTemplateSpec,
//     PodSpec, Container, ResourceRequirements, Volume, VolumeMount and
//     PersistentVolumeClaimVolumeSource in the Kubernetes API types of 1.37
//     (beta), and the types of the fields the examples use), refusing
//     unknown fields as kubectl's strict field validation does;
//   - applies the API server's Job validation rules that concern these
//     files (names, restartPolicy, Indexed needs completions,
//     backoffLimitPerIndex needs Indexed and Never, quantities, mounts that
//     name a volume, one source per volume);
//   - checks the two files agree with each other and with the shard count;
//   - runs the pods' shell scripts with /bin/sh on a tiny study (the
//     completion index set as Kubernetes sets it, /results a temporary
//     directory) and checks the merge is the unsharded run, byte for byte.
//
// What this cannot see (a real API server's defaulting and admission, image
// pulls, the volume's access mode, scheduling) is listed in docs/cluster.md.
package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ---- the batch/v1 Job schema (the part the examples reach) ------------------

type schema struct {
	typ      string // object, array, map, string, int32, int64, bool, quantity, any
	fields   map[string]*schema
	elem     *schema // array and map values
	required []string
	enum     []string
}

var anyS = &schema{typ: "any"}

func str(enum ...string) *schema { return &schema{typ: "string", enum: enum} }
func arr(e *schema) *schema      { return &schema{typ: "array", elem: e} }
func obj(fields map[string]*schema, required ...string) *schema {
	return &schema{typ: "object", fields: fields, required: required}
}

// known lists field names whose values this test does not type-check.
func known(m map[string]*schema, names string) map[string]*schema {
	for _, n := range strings.Fields(names) {
		if _, ok := m[n]; !ok {
			m[n] = anyS
		}
	}
	return m
}

var (
	i32      = &schema{typ: "int32"}
	i64      = &schema{typ: "int64"}
	boolS    = &schema{typ: "bool"}
	quantity = &schema{typ: "quantity"}

	objectMeta = obj(known(map[string]*schema{
		"name":        str(),
		"labels":      {typ: "map", elem: str()},
		"annotations": {typ: "map", elem: str()},
	}, "generateName namespace selfLink uid resourceVersion generation creationTimestamp deletionTimestamp "+
		"deletionGracePeriodSeconds ownerReferences finalizers managedFields"))

	resourceList = &schema{typ: "map", elem: quantity}

	container = obj(known(map[string]*schema{
		"name":    str(),
		"image":   str(),
		"command": arr(str()),
		"args":    arr(str()),
		"env":     arr(obj(known(map[string]*schema{"name": str(), "value": str()}, "valueFrom"), "name")),
		"resources": obj(known(map[string]*schema{
			"limits": resourceList, "requests": resourceList,
		}, "claims")),
		"volumeMounts": arr(obj(known(map[string]*schema{
			"name": str(), "mountPath": str(), "readOnly": boolS, "subPath": str(),
		}, "recursiveReadOnly mountPropagation subPathExpr bindMountOptions"), "name", "mountPath")),
		"workingDir":      str(),
		"imagePullPolicy": str("Always", "Never", "IfNotPresent"),
	}, "ports envFrom resizePolicy restartPolicy restartPolicyRules volumeDevices livenessProbe readinessProbe "+
		"startupProbe lifecycle terminationMessagePath terminationMessagePolicy securityContext stdin stdinOnce tty"), "name")

	volume = obj(known(map[string]*schema{
		"name": str(),
		"persistentVolumeClaim": obj(map[string]*schema{
			"claimName": str(), "readOnly": boolS,
		}, "claimName"),
		"emptyDir": obj(known(map[string]*schema{}, "medium sizeLimit")),
	}, "hostPath gcePersistentDisk awsElasticBlockStore gitRepo secret nfs iscsi glusterfs rbd flexVolume "+
		"cinder cephfs flocker downwardAPI fc azureFile configMap vsphereVolume quobyte azureDisk "+
		"photonPersistentDisk projected portworxVolume scaleIO storageos csi ephemeral image"), "name")

	podSpec = obj(known(map[string]*schema{
		"containers":                    arr(container),
		"initContainers":                arr(container),
		"volumes":                       arr(volume),
		"restartPolicy":                 str("Always", "OnFailure", "Never"),
		"terminationGracePeriodSeconds": i64,
		"activeDeadlineSeconds":         i64,
		"nodeSelector":                  {typ: "map", elem: str()},
		"serviceAccountName":            str(),
	}, "ephemeralContainers dnsPolicy serviceAccount automountServiceAccountToken nodeName hostNetwork "+
		"hostPID hostIPC shareProcessNamespace securityContext imagePullSecrets hostname subdomain affinity "+
		"schedulerName tolerations hostAliases priorityClassName priority dnsConfig readinessGates "+
		"runtimeClassName enableServiceLinks preemptionPolicy overhead topologySpreadConstraints "+
		"setHostnameAsFQDN os hostUsers schedulingGates resourceClaims resources hostnameOverride "+
		"schedulingGroup evictionResponders"), "containers")

	jobSpec = obj(known(map[string]*schema{
		"parallelism":             i32,
		"completions":             i32,
		"activeDeadlineSeconds":   i64,
		"backoffLimit":            i32,
		"backoffLimitPerIndex":    i32,
		"maxFailedIndexes":        i32,
		"ttlSecondsAfterFinished": i32,
		"completionMode":          str("NonIndexed", "Indexed"),
		"suspend":                 boolS,
		"template":                obj(map[string]*schema{"metadata": objectMeta, "spec": podSpec}),
	}, "podFailurePolicy successPolicy selector manualSelector podReplacementPolicy managedBy scheduling"), "template")

	jobSchema = obj(map[string]*schema{
		"apiVersion": str("batch/v1"),
		"kind":       str("Job"),
		"metadata":   objectMeta,
		"spec":       jobSpec,
		"status":     anyS,
	}, "apiVersion", "kind", "metadata", "spec")
)

var quantityRE = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$`)

// check walks v against s and returns every mismatch, by path.
func check(path string, v any, s *schema) []string {
	var errs []string
	bad := func(format string, args ...any) []string {
		return append(errs, path+": "+fmt.Sprintf(format, args...))
	}
	switch s.typ {
	case "any":
		return nil
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return bad("expected an object, got %T", v)
		}
		for _, r := range s.required {
			if _, ok := m[r]; !ok {
				errs = append(errs, path+"."+r+": required")
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, ok := s.fields[k]
			if !ok {
				errs = append(errs, path+"."+k+": unknown field")
				continue
			}
			errs = append(errs, check(path+"."+k, m[k], f)...)
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			return bad("expected a map, got %T", v)
		}
		for k, e := range m {
			errs = append(errs, check(path+"."+k, e, s.elem)...)
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return bad("expected a list, got %T", v)
		}
		for i, e := range a {
			errs = append(errs, check(fmt.Sprintf("%s[%d]", path, i), e, s.elem)...)
		}
	case "string":
		x, ok := v.(string)
		if !ok {
			return bad("expected a string, got %T %v (quote it)", v, v)
		}
		if len(s.enum) > 0 && !slices.Contains(s.enum, x) {
			return bad("%q is not one of %v", x, s.enum)
		}
	case "int32", "int64":
		x, ok := v.(int64)
		if !ok {
			return bad("expected an integer, got %T %v", v, v)
		}
		if s.typ == "int32" && (x < -1<<31 || x >= 1<<31) {
			return bad("%d overflows int32", x)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			return bad("expected true or false, got %T %v", v, v)
		}
	case "quantity":
		switch x := v.(type) {
		case int64, float64:
		case string:
			if !quantityRE.MatchString(x) {
				return bad("%q is not a quantity", x)
			}
		default:
			return bad("expected a quantity, got %T", v)
		}
	}
	return errs
}

// ---- the API server's Job validation, where it concerns these files ------------

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// bytesOf reads a memory quantity in bytes (the suffixes the examples use).
func bytesOf(q any) (float64, bool) {
	s := fmt.Sprint(q)
	m := regexp.MustCompile(`^([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$`).FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"": 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
	return x * mult[m[2]], true
}

func get(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func validateJob(job map[string]any) []string {
	errs := check("", job, jobSchema)
	if len(errs) > 0 {
		return errs // the rules below assume the types are right
	}
	add := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	name, _ := get(job, "metadata", "name").(string)
	// An Indexed Job's pods are named and labelled after it: a DNS label.
	if !dnsLabel.MatchString(name) || len(name) > 63 {
		add(".metadata.name: %q is not a DNS-1123 label of at most 63 characters", name)
	}
	spec := get(job, "spec").(map[string]any)
	for _, f := range []string{"parallelism", "completions", "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes", "activeDeadlineSeconds", "ttlSecondsAfterFinished"} {
		if x, ok := spec[f].(int64); ok && x < 0 {
			add(".spec.%s: must be >= 0", f)
		}
	}
	pod := get(spec, "template", "spec").(map[string]any)
	restart, _ := pod["restartPolicy"].(string)
	if restart != "Never" && restart != "OnFailure" {
		add(".spec.template.spec.restartPolicy: %q: a Job needs Never or OnFailure", restart)
	}
	indexed := spec["completionMode"] == "Indexed"
	if indexed {
		if _, ok := spec["completions"]; !ok {
			add(".spec.completions: required when completionMode is Indexed")
		}
		if p, ok := spec["parallelism"].(int64); ok && p > 100000 {
			add(".spec.parallelism: at most 100000 for an Indexed Job")
		}
	}
	if _, ok := spec["backoffLimitPerIndex"]; ok && (!indexed || restart != "Never") {
		add(".spec.backoffLimitPerIndex: needs completionMode Indexed and restartPolicy Never")
	}
	if _, ok := spec["maxFailedIndexes"]; ok {
		if _, ok := spec["backoffLimitPerIndex"]; !ok {
			add(".spec.maxFailedIndexes: needs backoffLimitPerIndex")
		}
	}
	volumes := map[string]bool{}
	vs, _ := pod["volumes"].([]any)
	for i, v := range vs {
		vm := v.(map[string]any)
		n, _ := vm["name"].(string)
		if !dnsLabel.MatchString(n) || volumes[n] {
			add(".spec.template.spec.volumes[%d].name: %q is not a unique DNS-1123 label", i, n)
		}
		volumes[n] = true
		if len(vm) != 2 {
			add(".spec.template.spec.volumes[%d]: needs exactly one volume source", i)
		}
		if c, ok := get(vm, "persistentVolumeClaim", "claimName").(string); ok && c == "" {
			add(".spec.template.spec.volumes[%d].persistentVolumeClaim.claimName: required", i)
		}
	}
	cs, _ := pod["containers"].([]any)
	if len(cs) == 0 {
		add(".spec.template.spec.containers: at least one container")
	}
	names := map[string]bool{}
	for i, c := range cs {
		cm := c.(map[string]any)
		p := fmt.Sprintf(".spec.template.spec.containers[%d]", i)
		n, _ := cm["name"].(string)
		if !dnsLabel.MatchString(n) || names[n] {
			add("%s.name: %q is not a unique DNS-1123 label", p, n)
		}
		names[n] = true
		if img, _ := cm["image"].(string); img == "" {
			add("%s.image: required", p)
		}
		mounts, _ := cm["volumeMounts"].([]any)
		paths := map[string]bool{}
		for j, m := range mounts {
			mm := m.(map[string]any)
			if vn, _ := mm["name"].(string); !volumes[vn] {
				add("%s.volumeMounts[%d].name: %q names no volume of the pod", p, j, vn)
			}
			mp, _ := mm["mountPath"].(string)
			if !strings.HasPrefix(mp, "/") || paths[mp] {
				add("%s.volumeMounts[%d].mountPath: %q is not a unique absolute path", p, j, mp)
			}
			paths[mp] = true
		}
		for _, res := range []string{"requests", "limits"} {
			m, _ := get(cm, "resources", res).(map[string]any)
			for k := range m {
				if k != "cpu" && k != "memory" && k != "ephemeral-storage" && !strings.Contains(k, "/") {
					add("%s.resources.%s.%s: not a standard resource name", p, res, k)
				}
			}
		}
		if lim, ok := get(cm, "resources", "limits", "memory").(string); ok {
			if req, ok := get(cm, "resources", "requests", "memory").(string); ok {
				l, ok1 := bytesOf(lim)
				r, ok2 := bytesOf(req)
				if ok1 && ok2 && r > l {
					add("%s.resources: memory request %s above the limit %s", p, req, lim)
				}
			}
		}
	}
	return errs
}

func TestJobValidatorRefuses(t *testing.T) {
	good := func() map[string]any {
		v, err := parseYAML("job", `apiVersion: batch/v1
kind: Job
metadata: {name: ok}
spec:
  completionMode: Indexed
  completions: 2
  backoffLimitPerIndex: 1
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: c
          image: i
          resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}
          volumeMounts: [{name: v, mountPath: /v}]
      volumes:
        - {name: v, persistentVolumeClaim: {claimName: pvc}}
`)
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	if errs := validateJob(good()); len(errs) > 0 {
		t.Fatalf("a valid Job refused: %v", errs)
	}
	c0 := func(j map[string]any) map[string]any {
		return get(j, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
	}
	for _, tc := range []struct {
		name, want string
		edit       func(j map[string]any)
	}{
		{"apiVersion", "not one of", func(j map[string]any) { j["apiVersion"] = "batch/v2" }},
		{"typo", "spec.completion: unknown field", func(j map[string]any) { get(j, "spec").(map[string]any)["completion"] = int64(2) }},
		{"string count", "expected an integer", func(j map[string]any) { get(j, "spec").(map[string]any)["completions"] = "2" }},
		{"bad quantity", "is not a quantity", func(j map[string]any) {
			get(c0(j), "resources", "requests").(map[string]any)["memory"] = "8GB"
		}},
		{"request above limit", "above the limit", func(j map[string]any) {
			get(c0(j), "resources", "requests").(map[string]any)["memory"] = "2Gi"
		}},
		{"Always", "needs Never or OnFailure", func(j map[string]any) {
			get(j, "spec", "template", "spec").(map[string]any)["restartPolicy"] = "Always"
		}},
		{"OnFailure per index", "needs completionMode Indexed and restartPolicy Never", func(j map[string]any) {
			get(j, "spec", "template", "spec").(map[string]any)["restartPolicy"] = "OnFailure"
		}},
		{"Indexed without completions", "required when completionMode is Indexed", func(j map[string]any) {
			delete(get(j, "spec").(map[string]any), "completions")
		}},
		{"mount of no volume", "names no volume", func(j map[string]any) {
			c0(j)["volumeMounts"].([]any)[0].(map[string]any)["name"] = "w"
		}},
		{"no image", "image: required", func(j map[string]any) { delete(c0(j), "image") }},
		{"args not strings", "expected a string", func(j map[string]any) { c0(j)["args"] = []any{int64(1)} }},
		{"bad name", "DNS-1123", func(j map[string]any) { get(j, "metadata").(map[string]any)["name"] = "Graph_Alloc" }},
	} {
		j := good()
		tc.edit(j)
		errs := validateJob(j)
		if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tc.want) }) {
			t.Errorf("%s: want an error containing %q, got %v", tc.name, tc.want, errs)
		}
	}
}

// ---- the examples ----------------------------------------------------------

func loadJob(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := parseYAML(name, string(b))
	if err != nil {
		t.Fatal(err)
	}
	job, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not a mapping", name)
	}
	if errs := validateJob(job); len(errs) > 0 {
		t.Fatalf("%s is not a valid batch/v1 Job:\n  %s", name, strings.Join(errs, "\n  "))
	}
	return job
}

// script returns the shell script of a Job's container (command sh -c, the
// script its one argument).
func script(t *testing.T, name string, job map[string]any) string {
	t.Helper()
	c := get(job, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
	cmd, _ := c["command"].([]any)
	args, _ := c["args"].([]any)
	if fmt.Sprint(cmd) != "[/bin/sh -c]" || len(args) != 1 {
		t.Fatalf("%s: expected command [/bin/sh, -c] and the script as the one argument, got %v %v", name, cmd, args)
	}
	return args[0].(string)
}

// The study the Indexed Job runs, and the tiny one the test runs instead.
const (
	k8sStudy  = "run -p graph -g regular:degree=16 -n 2^22 -m 1000n -t 256 --seed 20261130 -w 2"
	tinyStudy = "run -p graph -g regular:degree=4 -n 300 -t 37 --seed 9 -w 2"
)

func TestKubernetesExamples(t *testing.T) {
	shard := loadJob(t, "k8s-indexed-job.yaml")
	merge := loadJob(t, "k8s-merge-job.yaml")

	// The two Jobs agree: K is the number of completions, the merge reads
	// the shards of that K from the same claim at the same path.
	if get(shard, "spec", "completionMode") != "Indexed" {
		t.Fatal("k8s-indexed-job.yaml: completionMode must be Indexed (the completion index is the shard)")
	}
	k := get(shard, "spec", "completions").(int64)
	shardSh, mergeSh := script(t, "k8s-indexed-job.yaml", shard), script(t, "k8s-merge-job.yaml", merge)
	if !strings.Contains(shardSh, fmt.Sprintf("K=%d\n", k)) {
		t.Errorf("k8s-indexed-job.yaml: the script's K is not completions = %d", k)
	}
	if !strings.Contains(shardSh, "$JOB_COMPLETION_INDEX") {
		t.Error("k8s-indexed-job.yaml: the script does not read JOB_COMPLETION_INDEX")
	}
	if !strings.Contains(mergeSh, fmt.Sprintf("shard-*-of-%d.jsonl", k)) {
		t.Errorf("k8s-merge-job.yaml: the merge does not read the shards of K = %d", k)
	}
	claim := func(j map[string]any) string {
		return fmt.Sprint(get(get(j, "spec", "template", "spec", "volumes").([]any)[0], "persistentVolumeClaim", "claimName"))
	}
	mount := func(j map[string]any) string {
		c := get(j, "spec", "template", "spec", "containers").([]any)[0]
		return fmt.Sprint(get(get(c, "volumeMounts").([]any)[0], "mountPath"))
	}
	if claim(shard) != claim(merge) || mount(shard) != mount(merge) {
		t.Errorf("the Jobs use different volumes: claim %s at %s, claim %s at %s", claim(shard), mount(shard), claim(merge), mount(merge))
	}

	// The scripts, run as the pods would run them (POSIX sh, the index in
	// JOB_COMPLETION_INDEX), on a tiny study, with /results a temporary
	// directory and a go that does nothing (graphalloc is on PATH already).
	if testing.Short() {
		t.Skip("the pods' scripts are not run in short mode")
	}
	if !strings.Contains(shardSh, k8sStudy) {
		t.Fatalf("k8s-indexed-job.yaml no longer runs %q: update k8sStudy", k8sStudy)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	results := filepath.Join(dir, "results")
	for _, d := range []string{bin, results} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "graphalloc"), "github.com/graphalloc/graphalloc/cmd/graphalloc").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	local := func(s string) string { return strings.ReplaceAll(s, mount(shard), results) }
	shardSh = local(strings.Replace(shardSh, k8sStudy, tinyStudy, 1))
	mergeSh = local(mergeSh)
	env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	runPod := func(what, sh string, extra ...string) {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", sh)
		cmd.Env = append(env, extra...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
	}
	for i := range k {
		runPod(fmt.Sprintf("index %d", i), shardSh, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
	}
	// A retried index: its file cut after the first trial, as a pod killed
	// mid-run leaves it; the rerun resumes it.
	f := filepath.Join(results, fmt.Sprintf("shard-3-of-%d.jsonl", k))
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 4 {
		t.Fatalf("%s holds %d lines, want a config, trials and a summary", f, len(lines))
	}
	cut := strings.Join(lines[:2], "") + lines[2][:len(lines[2])/2]
	if err := os.WriteFile(f, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	runPod("index 3 retried", shardSh, "JOB_COMPLETION_INDEX=3")
	if b2, _ := os.ReadFile(f); string(b2) != string(b) {
		t.Errorf("the retried index 3 did not rebuild its file:\n%s\nwant\n%s", b2, b)
	}
	runPod("merge", mergeSh)
	got, err := os.ReadFile(filepath.Join(results, "all.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(filepath.Join(bin, "graphalloc"), append(strings.Fields(tinyStudy), "-f", "json")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("the merged result differs from the unsharded run of %s", tinyStudy)
	}
}
