#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the Slurm integration test.
#
#   tests/slurm/cluster.sh start DIR   install slurm-wlm and munge from Debian's packages
#                                      when missing, write a private configuration, munge
#                                      key and state under DIR, start munged, slurmctld
#                                      and slurmd, and wait for the node to be idle
#   tests/slurm/cluster.sh stop DIR    stop the three daemons started for DIR
#
# Clients find the cluster with SLURM_CONF=DIR/slurm.conf. Nothing outside DIR is
# configured, so the machine's own /etc/slurm and /etc/munge are left alone. Needs root
# (to install packages and to run slurmd, which starts jobs as their users).
set -euo pipefail

action=${1:?usage: cluster.sh start|stop DIR}
dir=${2:?usage: cluster.sh start|stop DIR}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v munged >/dev/null && command -v sbatch >/dev/null; then
        return
    fi
    echo "installing slurm-wlm and munge from Debian's packages" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
}

write_config() {
    local host cpus memory
    host=$(hostname -s)
    # The node as slurmd sees it; what it reports is what the node may offer.
    cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' | head -1)
    memory=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    chmod 700 "$dir" "$dir/munge"
    cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/cluster.sh: one node, no accounting, no cgroups.
ClusterName=isolo-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmctldPort=${ISOLO_SLURMCTLD_PORT:-16817}
SlurmdPort=${ISOLO_SLURMD_PORT:-16818}
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A job that depends on a failed one is cancelled, not left waiting for ever.
DependencyParameters=kill_invalid_depend
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    if [ ! -f "$dir/munge/munge.key" ]; then
        dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
        chmod 400 "$dir/munge/munge.key"
    fi
}

wait_for() {
    local what=$1 tries=$2
    shift 2
    for _ in $(seq "$tries"); do
        if "$@" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.5
    done
    echo "cluster.sh: $what did not come up; logs in $dir" >&2
    tail -n 20 "$dir"/*.log >&2 || true
    return 1
}

node_idle() {
    [ "$(SLURM_CONF=$dir/slurm.conf sinfo -h -N -o %t | head -1)" = idle ]
}

start() {
    install_packages
    write_config
    munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" --force
    wait_for munged 20 munge --socket="$dir/munge/munge.socket" -n
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -i
    wait_for slurmctld 40 scontrol ping
    slurmd
    wait_for "the node" 60 node_idle
    echo "cluster up: SLURM_CONF=$dir/slurm.conf" >&2
}

stop_pid() {
    local file=$1
    [ -f "$file" ] || return 0
    local pid
    pid=$(cat "$file")
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 40); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.25
    done
    kill -9 "$pid" 2>/dev/null || true
}

stop() {
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munge/munged.pid"
}

case $action in
start) start ;;
stop) stop ;;
*)
    echo "usage: cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
