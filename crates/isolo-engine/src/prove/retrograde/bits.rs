//! A bit per position, for the indexed and the distributed analyses: the first numbers
//! its positions with `u32`, the second each rank's places with `usize`.

/// A position's number or place, as a bit set takes it.
pub(crate) trait BitIndex: Copy {
    fn to_usize(self) -> usize;
    fn from_usize(at: usize) -> Self;
}

impl BitIndex for u32 {
    fn to_usize(self) -> usize {
        self as usize
    }
    fn from_usize(at: usize) -> u32 {
        at as u32
    }
}

impl BitIndex for usize {
    fn to_usize(self) -> usize {
        self
    }
    fn from_usize(at: usize) -> usize {
        at
    }
}

/// A bit per position, numbered by `I`.
pub(crate) struct Bits<I> {
    words: Vec<u64>,
    index: std::marker::PhantomData<I>,
}

impl<I: BitIndex> Bits<I> {
    /// `size` bits, all clear.
    pub(crate) fn new(size: u64) -> Bits<I> {
        Bits {
            words: vec![0; size.div_ceil(64) as usize],
            index: std::marker::PhantomData,
        }
    }

    pub(crate) fn get(&self, i: I) -> bool {
        let i = i.to_usize();
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Sets the bit; whether it was clear.
    pub(crate) fn set(&mut self, i: I) -> bool {
        let i = i.to_usize();
        let word = &mut self.words[i >> 6];
        let bit = 1u64 << (i & 63);
        let was_clear = *word & bit == 0;
        *word |= bit;
        was_clear
    }

    /// The positions whose bit is set, in order.
    pub(crate) fn ones(&self) -> impl Iterator<Item = I> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    I::from_usize(w << 6 | bit)
                })
            })
        })
    }
}
