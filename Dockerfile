# Two stages: a static navarch binary on a small base, run as a non-root user, with the
# database in a volume.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /navarch ./cmd/navarch

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data navarch && mkdir -p /data && chown navarch /data
COPY --from=build /navarch /usr/local/bin/navarch
USER navarch
WORKDIR /data
VOLUME /data
# The daemon ("navarch serve") arrives with the mail issue; until then the image verifies
# logs and keeps the database: docker run -v navarch:/data IMAGE check -db /data/navarch.db
HEALTHCHECK --interval=5m --timeout=10s CMD ["navarch", "version"]
ENTRYPOINT ["navarch"]
CMD ["help"]
