package delivery

import "time"

// retryPolicy is exponential backoff: base after the first failure,
// doubling, at most max apart, for attempts attempts in all.
type retryPolicy struct {
	base, max time.Duration
	attempts  int
}

// defaultRetry retries 5 s, 10 s, 20 s … then hourly, for about 90 hours:
// longer than the 72 hours of failure after which a webhook is disabled.
var defaultRetry = retryPolicy{base: 5 * time.Second, max: time.Hour, attempts: 100}

// delay is the wait after failed attempt n (1-based).
func (p retryPolicy) delay(n int) time.Duration {
	d := p.base
	for i := 1; i < n && d < p.max; i++ {
		d *= 2
	}
	return min(d, p.max)
}

// span is how long the retries last from the first attempt to the last.
func (p retryPolicy) span() time.Duration {
	var total time.Duration
	for n := 1; n < p.attempts; n++ {
		total += p.delay(n)
	}
	return total
}
