package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Where the time went during one run: the bench client, the server (when
// its pid is known) and the whole machine, in cores (CPU seconds per
// wall-clock second). The client, the server and PostgreSQL share the
// machine, so the client's share is what the gateway could not use.
type usage struct {
	ClientCores  float64 `json:"client_cores"`
	ServerCores  float64 `json:"server_cores,omitempty"`
	MachineCores float64 `json:"machine_cores"`
	// ServerRSSMB is the server's largest resident set sampled during the
	// run (VmRSS every 100 ms); ServerHWMMB its lifetime peak (VmHWM) at
	// the end of the run.
	ServerRSSMB float64 `json:"server_rss_mb,omitempty"`
	ServerHWMMB float64 `json:"server_hwm_mb,omitempty"`
}

// clkTck is USER_HZ, the unit of /proc/<pid>/stat times (100 on Linux).
const clkTck = 100

// observe starts measuring; the returned function stops and reports.
func observe(serverPID int) func() usage {
	start := time.Now()
	c0 := selfCPU()
	m0, _ := machineBusy()
	s0, _ := procCPU(serverPID)
	var (
		mu   sync.Mutex
		peak int64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	if serverPID > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				if kb, err := procStatusKB(serverPID, "VmRSS"); err == nil {
					mu.Lock()
					peak = max(peak, kb)
					mu.Unlock()
				}
				select {
				case <-done:
					return
				case <-t.C:
				}
			}
		}()
	}
	return func() usage {
		close(done)
		wg.Wait()
		el := time.Since(start).Seconds()
		u := usage{ClientCores: (selfCPU() - c0) / el}
		if m1, err := machineBusy(); err == nil {
			u.MachineCores = (m1 - m0) / el
		}
		if serverPID > 0 {
			if s1, err := procCPU(serverPID); err == nil {
				u.ServerCores = (s1 - s0) / el
			}
			u.ServerRSSMB = float64(peak) / 1024
			if hwm, err := procStatusKB(serverPID, "VmHWM"); err == nil {
				u.ServerHWMMB = float64(hwm) / 1024
			}
		}
		return u
	}
}

// selfCPU is this process's user+system CPU time in seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// procCPU is a process's user+system CPU time in seconds.
func procCPU(pid int) (float64, error) {
	if pid <= 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	return (ut + st) / clkTck, nil
}

// procStatusKB reads one "kB" field of /proc/<pid>/status.
func procStatusKB(pid int, field string) (int64, error) {
	return procStatusKBFile(fmt.Sprintf("/proc/%d/status", pid), field)
}

// procStatusKBFile reads one "Field:  N kB" line of a /proc file.
func procStatusKBFile(path, field string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && k == field {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("%s has no %s", path, field)
}

// machineBusy is the machine's non-idle CPU time in seconds (all cores),
// from the first line of /proc/stat.
func machineBusy() (float64, error) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return 0, fmt.Errorf("/proc/stat is empty")
	}
	fs := strings.Fields(sc.Text())
	if len(fs) < 5 || fs[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: unexpected format")
	}
	var busy float64
	for i, s := range fs[1:] {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, err
		}
		// user nice system idle iowait irq softirq steal guest guest_nice:
		// idle and iowait are not busy; guest times are already in user.
		if i == 3 || i == 4 || i >= 8 {
			continue
		}
		busy += v
	}
	return busy / clkTck, nil
}
