# syncgate container image: a static binary on distroless (CA certificates
# and tzdata, no shell), running as the unprivileged "nonroot" user.
#   make image            # or: docker build -t syncgate .
#   docker compose up     # syncgate + PostgreSQL + Redis + a seeded demo chain (compose.yaml)

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The same build CI runs (make static): CGO off, so the binary needs no libc.
RUN make static STATIC_OUT=/out/syncgate

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/syncgate /usr/local/bin/syncgate
USER nonroot:nonroot
WORKDIR /home/nonroot
# API, and metrics when METRICS_ADDR=:9090.
EXPOSE 8080 9090
ENTRYPOINT ["/usr/local/bin/syncgate"]
CMD ["serve"]
