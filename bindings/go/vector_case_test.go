package longstraw

// vectorNode is a node of a case in the vector files under tests/vectors/
// (and tests/membership/): its id, and where the file gives them, its
// weight (the f64's bits in hex) and failure domain.
type vectorNode struct {
	IDHex      string  `json:"id_hex"`
	WeightBits string  `json:"weight_bits"`
	DomainHex  *string `json:"domain_hex"`
}

// vectorKey is a key of such a case with its expected answers; a file
// leaves out the ones its mode does not have (partition outside table mode).
type vectorKey struct {
	KeyHex    string `json:"key_hex"`
	Partition *int   `json:"partition"`
	Owner     *int   `json:"owner"`
	Ranked    []int  `json:"ranked"`
	Distinct  []int  `json:"distinct"`
}
