//go:build linux

package testdb

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisCluster is a Redis Cluster of the test's own: masters redis-servers
// with cluster mode on, each on a free loopback port, the slots spread
// over them and no replicas, so killing one leaves its slots uncovered
// (cluster_state:fail). The node timeout is one second, so the survivors
// notice a dead master within about two.
type RedisCluster struct {
	t       testing.TB
	Servers []*RedisServer
}

// NewRedisCluster starts a cluster of masters (at least three, as
// redis-cli requires) and returns once every node reports
// cluster_state:ok; the servers are killed and their files removed when
// the test ends. Skips under -short; a missing redis-server or redis-cli
// fails the test.
func NewRedisCluster(t testing.TB, masters int) *RedisCluster {
	t.Helper()
	SkipShort(t)
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Fatalf("testdb redis cluster: redis-cli not found: %v", err)
	}
	dir, err := os.MkdirTemp("", "sg-rediscluster-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &RedisCluster{t: t}
	var addrs []string
	for range masters {
		port, err := clusterPort()
		if err != nil {
			t.Fatal(err)
		}
		r := &RedisServer{t: t, port: port, args: []string{"--cluster-enabled", "yes", "--cluster-node-timeout", "1000",
			"--cluster-config-file", filepath.Join(dir, "nodes-"+strconv.Itoa(port)+".conf"), "--dir", dir}}
		t.Cleanup(r.Kill)
		if err := r.Start(); err != nil {
			t.Fatalf("testdb redis cluster: %v", err)
		}
		c.Servers = append(c.Servers, r)
		addrs = append(addrs, "127.0.0.1:"+strconv.Itoa(port))
	}
	create := exec.Command(cli, append(append([]string{"--cluster", "create"}, addrs...), "--cluster-replicas", "0", "--cluster-yes")...)
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("testdb redis cluster: redis-cli --cluster create: %v\n%s", err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for i := range c.Servers {
		for {
			state, err := c.State(i)
			if err == nil && state == "ok" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("testdb redis cluster: node %d: state %q, %v", i, state, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// clusterPort is a free port whose cluster bus port (port + 10000) is
// free too.
func clusterPort() (int, error) {
	for range 20 {
		port, err := freePort()
		if err != nil {
			return 0, err
		}
		if port+10000 > 65535 {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		if err == nil {
			ln.Close()
			return port, nil
		}
	}
	return 0, fmt.Errorf("no free port pair for a cluster node")
}

// URL is the cluster as REDIS_URL names one: every node's redis:// URL,
// comma-separated.
func (c *RedisCluster) URL() string {
	urls := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		urls[i] = "redis://127.0.0.1:" + strconv.Itoa(s.port)
	}
	return strings.Join(urls, ",")
}

// State is node i's cluster_state (CLUSTER INFO): "ok" or "fail".
func (c *RedisCluster) State(i int) (string, error) {
	rc := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(c.Servers[i].port)})
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	info, err := rc.ClusterInfo(ctx).Result()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "cluster_state:"); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("no cluster_state in CLUSTER INFO")
}
