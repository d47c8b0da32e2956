package handlers

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// decodeSDK decodes b into T, a type mirroring a shape the client SDK
// declares (as the client SDK reads them), refusing unknown fields and checking that
// every object in b has every field T declares (json.Decoder alone lets a
// missing field pass as its zero value): a field renamed, retyped or added
// on one side only fails the test.
func decodeSDK[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	decodeSDKInto(t, "answer", b, &v)
	return v
}

// decodeSDKInto is decodeSDK into the value v points to; what names the
// answer in failures.
func decodeSDKInto(t *testing.T, what string, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not decode as the SDK declares it (%T): %v\n%.400s", what, v, err, b)
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatal(err)
	}
	if missing := missingFields(reflect.TypeOf(v), generic, "$"); len(missing) > 0 {
		t.Fatalf("%s lacks %v\n%.400s", what, missing, b)
	}
}

// missingFields walks a decoded JSON value along a Go type and lists the
// struct fields absent from it.
func missingFields(typ reflect.Type, v any, path string) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	var out []string
	switch typ.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return []string{path + " (not an object)"}
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("json"), ",")
			name := tag[0]
			if f.Anonymous && name == "" {
				out = append(out, missingFields(f.Type, v, path)...)
				continue
			}
			fv, present := obj[name]
			if !present && !slices.Contains(tag[1:], "omitempty") { // omitempty: optional in the SDK's type
				out = append(out, path+"."+name)
				continue
			}
			if fv != nil {
				out = append(out, missingFields(f.Type, fv, path+"."+name)...)
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return []string{path + " (not an array)"}
		}
		for i, e := range arr {
			out = append(out, missingFields(typ.Elem(), e, path+"["+strconv.Itoa(i)+"]")...)
		}
	}
	return out
}
